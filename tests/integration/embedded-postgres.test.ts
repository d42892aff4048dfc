import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/embedded-postgres";
import { freePort, newDataDir, removeDataDirs } from "../support/server-process";

/**
 * The embedded PostgreSQL's port is found free, then bound by PostgreSQL a moment later; on a
 * busy machine another process can take it between the two. Here a port that is taken is
 * handed out first: the start tries a new one, and gives up with PostgreSQL's reason after three.
 */
let taken: Server;
let takenPort: number;
let folder: string;

beforeAll(async () => {
  folder = newDataDir();
  taken = createServer();
  takenPort = await freePort();
  await new Promise<void>((resolve) => taken.listen(takenPort, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  removeDataDirs();
});

it("starts on a new port when the one it found is taken before PostgreSQL binds it", async () => {
  const ports = [takenPort, await freePort()];
  const server = await startEmbeddedPostgres({ dir: `${folder}/postgres`, findPort: async () => ports.shift()! });
  try {
    expect(ports).toEqual([]);
    const client = new pg.Client({ connectionString: server.url("postgres") });
    await client.connect();
    const { rows } = await client.query<{ port: string }>("SHOW port");
    await client.end();
    expect(Number(rows[0]!.port)).not.toBe(takenPort);
  } finally {
    await server.stop();
  }
});

it("gives up after three taken ports, with PostgreSQL's reason", async () => {
  let asked = 0;
  const start = startEmbeddedPostgres({ dir: `${folder}/postgres`, findPort: async () => (asked++, takenPort) });
  await expect(start).rejects.toThrow(/before it was ready: .*(could not create any TCP\/IP sockets|could not bind)/);
  expect(asked).toBe(3);
});
