import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { db } from "~/models/db.server";
import { onNotification, stopListening, wake } from "~/infra/listener.server";
import * as readModel from "~/infra/read-model.server";

/** The read model on for the enclosing tests (as the server starts it), and its listening connection closed after. */
export function withReadModel() {
  beforeAll(() => readModel.startReadModel());
  afterAll(async () => {
    readModel.stopReadModel();
    await stopListening();
  });
}

/**
 * Waits until every announcement committed before now has reached the read model: a read
 * that finds a marker committed now finds every earlier commit too, in the order written.
 * The read model takes the marker for an unknown change, and forgets everything it keeps.
 */
export async function settled() {
  const marker = `test-marker:${randomBytes(4).toString("hex")}`;
  let seen = false;
  const off = onNotification("read_model", (payload) => {
    if (payload === marker) seen = true;
  });
  try {
    await db().$executeRaw`SELECT announce('read_model', ${marker})`;
    wake();
    await vi.waitFor(() => expect(seen).toBe(true));
  } finally {
    off();
  }
}

/** Sends a game event and waits until it is heard (this handler, registered after the read model's, hears it after). */
export async function toldGame(event: object) {
  const payload = JSON.stringify(event);
  let seen = false;
  const off = onNotification("raffle_events", (heard) => (seen ||= heard === payload));
  try {
    await db().$executeRaw`SELECT announce('raffle_events', ${payload})`;
    wake();
    await vi.waitFor(() => expect(seen).toBe(true));
  } finally {
    off();
  }
}

/** Runs `change` with the read-model triggers off: the database changes and no one is told. */
export async function unannounced(change: () => Promise<unknown>) {
  await db().$executeRawUnsafe(`ALTER TABLE users DISABLE TRIGGER users_read_model_update`);
  await db().$executeRawUnsafe(`ALTER TABLE raffles DISABLE TRIGGER raffles_read_model`);
  try {
    await change();
  } finally {
    await db().$executeRawUnsafe(`ALTER TABLE users ENABLE TRIGGER users_read_model_update`);
    await db().$executeRawUnsafe(`ALTER TABLE raffles ENABLE TRIGGER raffles_read_model`);
  }
}
