import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { expect } from "@playwright/test";

/** The production server as a child process, on an embedded database of its own. */
export type ServerProcess = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

const dataDirs: string[] = [];

export function newDataDir(): string {
  const dir = path.resolve(`.data/e2e-process-${randomBytes(4).toString("hex")}`);
  dataDirs.push(dir);
  return dir;
}

export function removeDataDirs(): void {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function startServer(dataDir: string, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const port = Number(extraEnv.PORT ?? (await freePort()));
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["build/server.js"], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

export async function waitUntilReady(server: ServerProcess): Promise<void> {
  await expect
    .poll(
      async () => {
        if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
        return fetch(`http://localhost:${server.port}/readyz`).then((r) => r.status, () => 0);
      },
      { timeout: 60_000, intervals: [100, 250, 500] },
    )
    .toBe(200);
}

export async function stopServer(server: ServerProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  server.child.kill("SIGTERM");
  const code = await server.exited;
  return { code, ms: Date.now() - started };
}
