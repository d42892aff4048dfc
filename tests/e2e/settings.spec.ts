import { expect, test } from "@playwright/test";
import { signInRequest } from "./support";

test("the settings dialog: sections, support links, and a theme that survives a reload", async ({ page, baseURL }) => {
  await signInRequest(page.request, baseURL!, "player@demo.test", "demo-player-pass");
  await page.goto("/");
  await page.getByRole("link", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  for (const section of ["Appearance", "Notifications", "Audio & Effects", "Gameplay", "Support & Help"]) {
    await expect(dialog.getByText(section, { exact: true })).toBeVisible();
  }
  await expect(dialog.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("target", "_blank");
  await expect(dialog.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("target", "_blank");

  const javascript = await page.evaluate(() => document.documentElement.dataset.hydrated === "true").catch(() => false);
  if (javascript) {
    await dialog.getByRole("switch", { name: "Dark mode" }).check();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await dialog.getByRole("button", { name: "Account Information" }).click();
    await expect(page.getByTestId("toast")).toContainText(/Account ID: …[0-9a-f]{8}/);
    await dialog.getByRole("button", { name: "Contact Support" }).click();
    await expect(page.getByTestId("toast")).toContainText("coming soon");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value).toBeTruthy();
  } else {
    await expect(dialog.getByText(/Account ID: …[0-9a-f]{8}/)).toBeVisible();
    await dialog.getByRole("button", { name: "Turn on" }).click();
  }
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass(/dark/);
});
