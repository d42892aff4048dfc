import { expect, it } from "vitest";
import { closeEvents } from "~/infra/events.server";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

// A file of its own: closing the live events is for good in this process.
it("at shutdown the open event streams end and a new one is refused with 503 and Retry-After", async () => {
  const user = await createTestUser({ coins: 0n });
  const cookie = await sessionCookie(user.id);
  const stream = await call("/api/events", { cookie });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("retry:");

  await closeEvents();
  // The stream ends by itself: the server closed it.
  expect((await reader.read()).done).toBe(true);

  const refused = await call("/api/events", { cookie });
  expect(refused.status).toBe(503);
  expect(refused.headers.get("Retry-After")).toBe("5");
  expect(await refused.text()).toBe("Shutting down");
});
