import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, keepToasts, signUpRequest, unique } from "./support";

/**
 * A player without a username gets the dialog on every full page load, and it stays until
 * a username is saved (spec), with JavaScript (after hydration) and without (issue 20).
 */
test("the username dialog stays open on a full page load until a username is saved", async ({ page, baseURL }) => {
  const email = `nameless-${unique()}@example.com`;
  const signUp = await page.request.post("/api/login", {
    form: { intent: "signup", email, password: "correct horse battery staple", dateOfBirth: "1990-01-01", country: "IE", acceptTerms: "on" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(signUp.status()).toBe(302);
  await page.goto("/withdraw");
  await hydratedIfJavaScript(page);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Username").fill(`n_${unique()}`.slice(0, 20));
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(dialog).toHaveCount(0);
  await page.goto("/withdraw");
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toHaveCount(0);
});

test("spaces alone in the username dialog are told a username is required (issue 33)", async ({ page, baseURL }) => {
  await keepToasts(page);
  await signUpRequest(page.request, baseURL!, `spaces-${unique()}@example.com`);
  await page.goto("/history");
  await hydratedIfJavaScript(page);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await dialog.getByLabel("Username").fill("   ");
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(page.getByTestId("toast")).toContainText("Username Required");
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toBeVisible();
});
