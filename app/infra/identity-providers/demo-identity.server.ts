import { randomBytes } from "node:crypto";
import { createDemoIdentitySession, decideDemoIdentitySession, findDemoIdentitySession, type DemoOutcome } from "~/models/accounts/identity-check.server";
import type { IdentityProvider, IdentitySession } from "./provider";

/**
 * The demo identity provider (demo mode only, labelled on its page): no document is asked
 * for; the player picks the result the check should have. Its sessions live in
 * `demo_identity_sessions`, as Stripe keeps its VerificationSessions.
 */
export const demoIdentity: IdentityProvider & { decide(id: string, outcome: DemoOutcome): Promise<void> } = {
  name: "demo",

  async createSession({ userId }) {
    const id = `demo_vs_${randomBytes(12).toString("hex")}`;
    await createDemoIdentitySession(id, userId);
    return { id, url: `/verify/demo/${id}` };
  },

  async getSession(id) {
    const row = await findDemoIdentitySession(id);
    if (!row) throw new Error(`no demo identity session ${id}`);
    const outcome = (row.outcome ?? {}) as Partial<DemoOutcome>;
    const metadata = row.metadata as { userId?: unknown };
    return {
      id: row.id,
      status: row.status as IdentitySession["status"],
      userId: typeof metadata.userId === "string" ? metadata.userId : null,
      ...(outcome.verified ? { verified: outcome.verified } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
    };
  },

  async decide(id, outcome) {
    await decideDemoIdentitySession(id, outcome);
  },
};
