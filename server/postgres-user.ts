import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Who the embedded PostgreSQL runs as, and where its files live so that user can reach
 * them (docs/decisions/003-embedded-postgres.md). PostgreSQL refuses to run as root, so
 * as root it runs as the system user "postgres"; that user cannot reach a checkout
 * inside a folder only root may enter (/root, a `mktemp -d` folder). Then the binaries
 * are copied to, and the cluster kept in, SHARED_HOME. The user's own folders keep
 * their permissions.
 */

/** The one line that says why the embedded PostgreSQL cannot start and what to do. */
export class EmbeddedPostgresError extends Error {}

export type PostgresUser = { name: string; uid: number; gid: number };

/** Root's home for what the PostgreSQL user must reach: binaries per version, clusters per data folder. */
export const SHARED_HOME = "/var/lib/raffle-rush";

const SYSTEM_USER = "postgres";

/** In a cluster's folder under SHARED_HOME: the DATA_DIR/postgres it belongs to and the pid that made it. */
export const OWNER_FILE = "owner.json";

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** The user PostgreSQL runs as when it is not this process's own user (as root), created when missing. */
export function postgresUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => ({
    name: SYSTEM_USER,
    uid: Number(execFileSync("id", ["-u", SYSTEM_USER]).toString().trim()),
    gid: Number(execFileSync("id", ["-g", SYSTEM_USER]).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    try {
      execFileSync("useradd", ["--system", "--user-group", "--no-create-home", SYSTEM_USER], { stdio: "pipe" });
      return lookup();
    } catch (error) {
      throw new EmbeddedPostgresError(
        `PostgreSQL refuses to run as root and the system user ${SYSTEM_USER} could not be created (${errorCode(error)}): ` +
          `create it (useradd --system ${SYSTEM_USER}), run npm start as an ordinary user, or set DATABASE_URL`,
      );
    }
  }
}

/** This process's user, for messages. */
export function currentUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return `uid ${process.getuid?.()}`;
  }
}

/** Whether `user` can enter `folder`: every folder on the way must let it through. */
export function canEnter(folder: string, user: PostgresUser): boolean {
  const probe = spawnSync("sh", ["-c", 'test -x "$1"', "sh", folder], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return probe.status === 0;
}

/** The first folder on the way to `target` that `user` cannot enter (for messages). */
function blockingFolder(target: string, user: PostgresUser): string {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const folder = path.sep + parts.slice(0, i).join(path.sep);
    if (!canEnter(folder, user)) return folder;
  }
  return target;
}

/** Why `user` cannot reach `target`, naming the folder in the way. */
export function outOfReach(target: string, user: PostgresUser): string {
  return `user ${user.name}, who runs PostgreSQL (it refuses root), cannot enter ${blockingFolder(target, user)}`;
}

/** Creates `folder` (and its parents) as this process's user, or explains why it cannot. */
export function makeFolder(folder: string, mode: number): void {
  try {
    mkdirSync(folder, { recursive: true, mode });
  } catch (error) {
    throw new EmbeddedPostgresError(
      `cannot create ${folder} for the embedded PostgreSQL as user ${currentUserName()} (${errorCode(error)}): ` +
        "set DATA_DIR to a folder this user may write, or set DATABASE_URL",
    );
  }
}

type Binaries = { initdb: string; postgres: string };

/** Whether `user` can run `binary` (every folder on its way is enterable, the file executable). */
function canRun(binary: string, user: PostgresUser): boolean {
  const probe = spawnSync(binary, ["--version"], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return probe.status === 0;
}

/**
 * The package's binaries when `user` can run them where they are; otherwise a copy of the
 * package's `native/` folder (bin, lib, share, found from each other by relative paths)
 * under SHARED_HOME, owned by root and readable by all, made once per version.
 */
export function reachableBinaries(binaries: Binaries, user: PostgresUser | undefined): Binaries {
  if (!user || canRun(binaries.postgres, user)) return binaries;
  const native = path.dirname(path.dirname(binaries.postgres));
  const { version } = JSON.parse(readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string };
  const home = path.join(SHARED_HOME, `postgres-${version}`);
  const copy = { initdb: path.join(home, "bin", "initdb"), postgres: path.join(home, "bin", "postgres") };
  if (!existsSync(copy.postgres)) {
    const draft = `${home}.${process.pid}.${randomBytes(4).toString("hex")}`;
    try {
      makeSharedHome();
      cpSync(native, draft, { recursive: true, verbatimSymlinks: true });
      execFileSync("chmod", ["-R", "a+rX", draft]);
      // Whole or not at all: a process starting at the same time sees no copy or a complete one.
      renameSync(draft, home);
    } catch (error) {
      rmSync(draft, { recursive: true, force: true });
      // Another process put its copy in place first: use that one.
      if (!existsSync(copy.postgres)) {
        throw new EmbeddedPostgresError(
          `${outOfReach(native, user)} to run its binaries, and copying them to ${home} failed (${errorCode(error)}): ` +
            `make ${native} reachable for ${user.name}, or set DATABASE_URL`,
        );
      }
    }
  }
  if (!canRun(copy.postgres, user)) {
    throw new EmbeddedPostgresError(`${outOfReach(copy.postgres, user)} to run its binaries: make ${home} reachable for ${user.name}, or set DATABASE_URL`);
  }
  return copy;
}

function makeSharedHome() {
  mkdirSync(path.join(SHARED_HOME, "clusters"), { recursive: true, mode: 0o755 });
  // mkdir's mode passes through the umask; the PostgreSQL user must enter these folders.
  chmodSync(SHARED_HOME, 0o755);
  chmodSync(path.join(SHARED_HOME, "clusters"), 0o755);
}

/**
 * A folder of its own under SHARED_HOME for the cluster of `root` (a DATA_DIR/postgres
 * that `user` cannot reach), named after that path so a person can tell whose it is, and
 * owned by `user`. Empties what a former cluster of the same path left there.
 */
export function sharedClusterHome(root: string, user: PostgresUser): string {
  const readable = root
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .slice(-48)
    .replace(/^-+/, "");
  const home = path.join(SHARED_HOME, "clusters", `${readable}-${createHash("sha256").update(root).digest("hex").slice(0, 10)}`);
  try {
    makeSharedHome();
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { mode: 0o700 });
    // Whose cluster this is: once its DATA_DIR no longer names it (deleted with its clone) and
    // the process that made it is gone, it is an orphan (sweepOrphanedClusters).
    writeFileSync(path.join(home, OWNER_FILE), `${JSON.stringify({ root, pid: process.pid })}\n`);
    execFileSync("chown", [`${user.uid}:${user.gid}`, home]);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `${outOfReach(root, user)} to keep its cluster there, and ${home} could not be made instead (${errorCode(error)}): ` +
        `make ${root} reachable for ${user.name}, or set DATABASE_URL`,
    );
  }
  return home;
}
