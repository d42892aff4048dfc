import { redirect } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { DomainError } from "~/shared/domain-error";
import { pageAction, pageOf } from "./page-action.server";
import { readToast } from "./toast.server";

const post = (headers: Record<string, string> = {}) => new Request("http://localhost/raffles/x/enter", { method: "POST", headers });

async function toastOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  return cookie ? (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0]! } }))).toast : null;
}

describe("the page the form was on", () => {
  it("is the Referer's path and query when it is this site's, else the fallback", () => {
    expect(pageOf(post({ Referer: "http://localhost/quick?tier=bolt" }), "/")).toBe("/quick?tier=bolt");
    expect(pageOf(post({ Referer: "not a url" }), "/vip")).toBe("/vip");
    expect(pageOf(post(), "/vip")).toBe("/vip");
    // Only the path is kept: another site's page becomes ours, never a redirect away.
    expect(pageOf(post({ Referer: "https://evil.example//evil.example/x" }), "/")).toBe("/");
  });
});

describe("an in-page action's one answer", () => {
  it("goes back to the page with the success toast, replacing the history entry", async () => {
    const response = await pageAction(
      post({ Referer: "http://localhost/quick", Accept: "application/json" }),
      async () => ({ type: "success", title: "Quick Entry!" }),
      {
        failureTitle: "Entry Failed",
      },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/quick");
    expect(response.headers.get("X-Remix-Replace")).toBe("true");
    expect(await toastOf(response)).toMatchObject({ type: "success", title: "Quick Entry!" });
  });

  it("goes back with the failure's title and message when refused", async () => {
    const response = await pageAction(
      post(),
      async () => {
        throw new DomainError("insufficient_coins", "Insufficient Coins");
      },
      { failureTitle: "Entry Failed", back: "/quick" },
    );
    expect(response.headers.get("Location")).toBe("/quick");
    expect(await toastOf(response)).toMatchObject({ type: "error", title: "Entry Failed", description: "Insufficient Coins" });
  });

  it("sends a signed-out player to sign-in with the spec's toast, coming back to the page", async () => {
    for (const thrown of [Response.json({ message: "Unauthorized" }, { status: 401 }), redirect("/api/login?returnTo=%2Fraffles%2Fx%2Fenter")]) {
      const response = await pageAction(
        post({ Referer: "http://localhost/quick" }),
        async () => {
          throw thrown;
        },
        { failureTitle: "Entry Failed" },
      );
      expect(response.headers.get("Location")).toBe("/api/login?returnTo=%2Fquick");
      expect(await toastOf(response)).toMatchObject({ type: "error", title: "Unauthorized", description: "You are logged out. Logging in again..." });
    }
  });

  it("lets a bug through as a bug (a 500), not as a toast", async () => {
    const bug = new TypeError("oops");
    await expect(
      pageAction(
        post(),
        async () => {
          throw bug;
        },
        { failureTitle: "Entry Failed" },
      ),
    ).rejects.toBe(bug);
  });
});
