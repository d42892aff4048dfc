import { spawn, type SpawnOptions } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * `npm test` finds or installs its Chromium before anything else (issue 37): its first step
 * runs here on a PATH that holds only `node` (and, for root, a stand-in for apt-get that
 * records how it was called and "installs" a Chromium), from a copy of the script in a
 * folder anyone may read, so that another user can run it wherever this checkout lives.
 */

const isRoot = process.getuid?.() === 0;
const firstStep = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { test: string } }).scripts.test.split(" && ")[0]!;

let folder: string;
let bin: string;
test.beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "raffle-chromium-"));
  chmodSync(folder, 0o755);
  mkdirSync(path.join(folder, "scripts"), { mode: 0o755 });
  copyFileSync("scripts/chromium.mjs", path.join(folder, "scripts/chromium.mjs"));
  chmodSync(path.join(folder, "scripts/chromium.mjs"), 0o644);
  bin = path.join(folder, "bin");
  mkdirSync(bin, { mode: 0o777 });
  chmodSync(bin, 0o777);
  symlinkSync(process.execPath, path.join(bin, "node"));
});
test.afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `npm test`'s first step with PATH=bin, as `user` when given; resolves with what it did. */
function runFirstStep(user?: { uid: number; gid: number }) {
  const started = Date.now();
  const options: SpawnOptions = { cwd: folder, env: { PATH: bin } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], ...user };
  const child = spawn("/bin/sh", ["-c", firstStep], options);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string; ms: number }>((resolve) =>
    child.on("close", (code) => resolve({ code, output, ms: Date.now() - started })),
  );
}

/** A stand-in for apt-get: appends its arguments to a log, and "install" puts a Chromium on PATH. */
function fakeAptGet(): string {
  const log = path.join(folder, "apt-get.log");
  writeFileSync(
    path.join(bin, "apt-get"),
    `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> ${log}\n` +
      `if [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${bin}/chromium; /bin/chmod 755 ${bin}/chromium; fi\n`,
    { mode: 0o755 },
  );
  return log;
}

test("npm test's first step is the Chromium check", () => {
  expect(firstStep).toBe("node scripts/chromium.mjs");
});

test("without a Chromium and not root, npm test stops at once with the one command to run", async () => {
  // As root, the check runs as the system's unprivileged user, so that it cannot install.
  const user = isRoot ? { uid: 65534, gid: 65534 } : undefined;
  fakeAptGet();
  const { code, output, ms } = await runFirstStep(user);
  expect(code).toBe(1);
  expect(output).toBe(
    "No Chromium found: run `sudo apt-get install -y chromium` (or set PLAYWRIGHT_CHROMIUM_EXECUTABLE to a Chromium binary), then npm test again.\n",
  );
  expect(ms).toBeLessThan(5_000);
  expect(existsSync(path.join(folder, "apt-get.log"))).toBe(false);
});

test("without a Chromium, as root with apt-get, npm test installs Debian's chromium and says so in one line", async () => {
  test.skip(!isRoot, "not root: only root installs the Chromium (the ordinary user's case runs as this user)");
  const log = fakeAptGet();
  const { code, output } = await runFirstStep();
  expect(output).toBe("No Chromium found: installing Debian's (apt-get install -y chromium), once, for the browser tests…\n");
  expect(code).toBe(0);
  expect(readFileSync(log, "utf8")).toBe("noninteractive update -qq\nnoninteractive install -y -qq chromium\n");
});

test("with a Chromium on PATH, npm test goes on without a word and installs nothing", async () => {
  const log = fakeAptGet();
  writeFileSync(path.join(bin, "chromium"), "#!/bin/sh\n", { mode: 0o755 });
  const { code, output } = await runFirstStep();
  expect({ code, output }).toEqual({ code: 0, output: "" });
  expect(existsSync(log)).toBe(false);
});
