import { expect, test } from "@playwright/test";

test.describe("with JavaScript", () => {
  test("hydrates under the enforcing Content Security Policy", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") violations.push(message.text());
    });
    const response = await page.goto("/");
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src [^;]*'nonce-[^']+'/);
    expect(csp).not.toContain("unsafe-eval");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(violations).toEqual([]);
  });
});
