import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript } from "./support";

// A phone's screen in every project: the sign-up form sits below sign-in, out of the first screen.
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Issue 33, item 5: on a phone a refused sign-up came back at the top of the page, its
 * error out of sight, the password cleared without a word. The form keeps what was typed,
 * says the password must be typed again (it is never sent back), and the first field in
 * error is focused and on screen, with a summary at the top of the form.
 */
test("a refused sign-up keeps what was typed and shows its first error on screen", async ({ page }) => {
  await page.goto("/api/login");
  const javascript = await hydratedIfJavaScript(page);
  const form = page.getByRole("form", { name: "Create an account" });
  // The demo player's email: taken, which only the server can tell.
  await form.getByLabel("Email").fill("player@demo.test");
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel("24-hour limit ($)").fill("50");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();

  const email = form.getByLabel("Email");
  await expect(form.getByTestId("form-error-summary")).toContainText("An account with this email already exists");
  await expect(email).toBeFocused();
  await expect(email).toBeInViewport();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveValue("player@demo.test");
  await expect(form.getByLabel("Date of birth")).toHaveValue("1990-05-17");
  await expect(form.getByLabel("Country where you live")).toHaveValue("GB");
  await expect(form.getByLabel("24-hour limit ($)")).toHaveValue("50");
  await expect(form.getByLabel(/accept the/)).toBeChecked();
  if (javascript) {
    // The page never left: the password typed is still there.
    await expect(form.getByLabel("Password")).toHaveValue("correct horse battery staple");
    await expect(form.getByText("type your password again")).toHaveCount(0);
  } else {
    // A new page: the password is never sent back, and the form says so.
    await expect(form.getByLabel("Password")).toHaveValue("");
    await expect(form.getByText("For your security, type your password again.")).toBeVisible();
  }
});
