import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, keepToasts, signInRequest, signUpWithUsername } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

test("the settings dialog: sections, support links, and a theme that survives a reload", async ({ page, baseURL }) => {
  test.setTimeout(scaled(60_000));
  await signInRequest(page.request, baseURL!, "player@demo.test", "demo-player-pass");
  await page.goto("/");
  // Before hydration the link loads the settings page, not the dialog.
  const javascript = await hydratedIfJavaScript(page);
  await page.getByRole("link", { name: "Settings" }).click();
  // With JavaScript a dialog over the page; without it, the settings page (not a block at the page's bottom).
  const settings = javascript ? page.getByRole("dialog", { name: "Settings" }) : page.getByRole("main");
  if (!javascript) {
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeInViewport();
  }
  await expect(settings).toBeVisible();
  for (const section of ["Appearance", "Notifications", "Audio & Effects", "Gameplay", "Support & Help"]) {
    await expect(settings.getByText(section, { exact: true })).toBeVisible();
  }
  await expect(settings.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("target", "_blank");
  await expect(settings.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("target", "_blank");
  // No auto-enter: the settings say why instead.
  await expect(settings.getByTestId("no-auto-enter")).toContainText("automatic play takes control away from you");
  await expect(settings.getByRole("switch", { name: /auto-enter/i })).toHaveCount(0);

  if (javascript) {
    await settings.getByRole("switch", { name: "Dark mode" }).check();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await settings.getByRole("button", { name: "Account Information" }).click();
    await expect(page.getByTestId("toast")).toContainText(/Account ID: …[0-9a-f]{8}/);
    await settings.getByRole("button", { name: "Contact Support" }).click();
    await expect(page.getByTestId("toast")).toContainText("coming soon");
    await settings.getByRole("button", { name: "Done" }).click();
    await expect(settings).toBeHidden();
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value).toBeTruthy();
  } else {
    await expect(settings.getByText(/Account ID: …[0-9a-f]{8}/)).toBeVisible();
    await settings.getByRole("button", { name: "Turn on" }).click();
    await expect(page).toHaveURL(/\/settings$/);
  }
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass(/dark/);
});

test("the settings' switches are kept on the account: email on and sound off by default, changed with or without JavaScript", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/settings");
  // With JavaScript a switch saves itself, once the page is hydrated.
  const javascript = await hydratedIfJavaScript(page);
  const email = page.getByRole("switch", { name: /Email notifications/ });
  const sound = page.getByRole("switch", { name: /Sound effects/ });
  await expect(email).toBeChecked();
  await expect(sound).not.toBeChecked();
  await email.uncheck();
  await sound.check();
  if (javascript) {
    await expect.poll(async () => (await page.request.get("/api/settings")).json()).toMatchObject({ emailNotifications: false, soundEffects: true });
  } else {
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast")).toContainText("Settings saved");
  }
  await page.goto("/settings");
  await expect(page.getByRole("switch", { name: /Email notifications/ })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: /Sound effects/ })).toBeChecked();
});
