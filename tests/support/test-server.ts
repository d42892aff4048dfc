import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { testDatabaseUrl } from "./database-setup";
import { freePort, startServer, stopServer, waitUntilReady, type ServerProcess } from "./server-process";

/**
 * The production build as a child process on this test file's database, started before the
 * file's tests and stopped after them: no raffles opened or drawn meanwhile (the scheduler
 * is off), entries limited only loosely. Its origin and port are there once it is up.
 */
export function startProductionServerForFile(): { readonly origin: string; readonly port: number } {
  let server: ServerProcess | undefined;
  let origin = "";
  beforeAll(async () => {
    server = await startServer(path.resolve(process.env.DATA_DIR ?? ".data/test"), {
      DATABASE_URL: testDatabaseUrl,
      DEMO_MODE: "true",
      PORT: String(await freePort({ from: 3400, to: 3449 })),
      LOG_LEVEL: "warn",
      SCHEDULER_ENABLED: "false",
      ENTRY_LIMIT_PER_SECOND: "1000",
    });
    await waitUntilReady(server);
    origin = `http://127.0.0.1:${server.port}`;
  }, 90_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });
  return {
    get origin() {
      return origin;
    },
    get port() {
      return server!.port;
    },
  };
}
