#!/usr/bin/env bash
# The stress check for flakes (issue 38): runs a command, `npm test` by default, while two
# processes of its own spin on the CPU for the command's whole length, as a busy machine
# would. Timeouts stretch as in CI (TEST_TIMEOUT_FACTOR, default 2 here as in .ci/run).
#   scripts/stress.sh                                   # npm test under load
#   scripts/stress.sh npx playwright test --project=desktop
set -u
cd "$(dirname "$0")/.."
export TEST_TIMEOUT_FACTOR="${TEST_TIMEOUT_FACTOR:-2}"
burners=()
for _ in 1 2; do
  node -e "for (;;);" &
  burners+=("$!")
done
trap 'kill "${burners[@]}" 2>/dev/null' EXIT
[ "$#" -gt 0 ] || set -- npm test
"$@"
