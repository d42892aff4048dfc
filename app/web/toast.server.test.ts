import { describe, expect, it } from "vitest";
import { readToast, redirectWithToast } from "./toast.server";

function cookieFrom(response: Response): string {
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

describe("flash toasts", () => {
  it("carry a message across a redirect and are shown once", async () => {
    const response = await redirectWithToast("/withdraw", {
      type: "success",
      title: "Withdrawal Requested",
      description: "Your withdrawal has been submitted and will be processed within 24 hours.",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/withdraw");

    const next = new Request("http://localhost/withdraw", { headers: { Cookie: cookieFrom(response) } });
    const { toast, headers } = await readToast(next);
    expect(toast).toMatchObject({ type: "success", title: "Withdrawal Requested" });
    // The page that shows it clears it.
    expect(headers?.get("Set-Cookie")).toMatch(/__toast=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("ignores a tampered cookie", async () => {
    const response = await redirectWithToast("/", { title: "Hello" });
    const tampered = cookieFrom(response).replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: tampered } }));
    expect(toast).toBeNull();
  });

  it("reads nothing when there is no cookie", async () => {
    expect(await readToast(new Request("http://localhost/"))).toEqual({ toast: null, headers: null });
  });
});
