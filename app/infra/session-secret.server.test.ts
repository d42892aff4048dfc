import { afterEach, describe, expect, it } from "vitest";
import { forgetEnv } from "./env.server";
import { personEmailKey, personIdentityKey } from "./person-key.server";
import { receiptPublicKey } from "./receipt-key.server";

const OLD = "an-old-session-secret-that-leaked-0123456789";
const NEW = "a-new-session-secret-after-the-leak-9876543210";
const saved = { SESSION_SECRET: process.env.SESSION_SECRET, LASTING_SECRET: process.env.LASTING_SECRET };

function configure(env: { SESSION_SECRET: string; LASTING_SECRET?: string }) {
  process.env.SESSION_SECRET = env.SESSION_SECRET;
  if (env.LASTING_SECRET === undefined) delete process.env.LASTING_SECRET;
  else process.env.LASTING_SECRET = env.LASTING_SECRET;
  forgetEnv();
}

/** What the site finds people and checks receipts by. */
const lasting = () => ({
  email: personEmailKey("Ada.Lovelace@example.com"),
  identity: personIdentityKey("Ada", "Lovelace", "1990-12-10"),
  receipts: receiptPublicKey(),
});

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetEnv();
});

describe("the lasting secret (ADR 086)", () => {
  it("keeps person keys and the receipt key when the session secret is rotated", () => {
    // A site from before LASTING_SECRET keyed them from its session secret...
    configure({ SESSION_SECRET: OLD });
    const before = lasting();
    // ...and, with LASTING_SECRET set to that value, rotates its session secret without losing them.
    configure({ SESSION_SECRET: NEW, LASTING_SECRET: OLD });
    expect(lasting()).toEqual(before);
  });

  it("is what they depend on: without it, a rotated session secret would lose every kept control", () => {
    configure({ SESSION_SECRET: OLD });
    const before = lasting();
    configure({ SESSION_SECRET: NEW });
    const after = lasting();
    expect(after.email).not.toBe(before.email);
    expect(after.identity).not.toBe(before.identity);
    expect(after.receipts).not.toBe(before.receipts);
  });
});
