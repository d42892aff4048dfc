#!/usr/bin/env bash
# `npm run test:e2e`: the browser suites, then the process tests and the card-data scan,
# which run whatever the suites' result (a failure there must not hide 34 other tests)
# but after them, not beside them, so their servers' start-ups do not slow the suites.
# Fails when either run failed. Arguments go to both runs (e.g. --reporter=line).
set -u
cd "$(dirname "$0")/.."

# The suites' databases stay for the card-data scan, owned by this script, and go when it ends.
trap 'node --import tsx tests/support/e2e-cleanup.ts' EXIT

status=0
E2E_KEEP_DATABASES=$$ npx playwright test --project=desktop --project=mobile --project=no-javascript "$@" || status=1
E2E_AFTER_SUITES=1 npx playwright test --project=process --project=after-suites --no-deps "$@" || status=1
exit "$status"
