import { expect, test } from "@playwright/test";

test.describe("the site shell", () => {
  test("serves the landing page to a signed-out visitor", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    for (const name of ["Login to Play", "Get Started", "Join Now"]) {
      await expect(page.getByRole("link", { name })).toHaveAttribute("href", "/api/login");
    }
    for (const title of ["Lightning Fast", "Micro Stakes", "50/50 Split"]) {
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
    }
  });

  test("heads the sign-in pages with the logo, a link home", async ({ page }) => {
    for (const path of ["/api/login", "/forgot-password"]) {
      await page.goto(path);
      const home = page.getByRole("link", { name: "Raffle Rush" });
      await expect(home).toHaveAttribute("href", "/");
      await expect(home.getByTestId("logo")).toBeVisible();
    }
  });

  test("answers an unknown path with the player-facing not-found page and a 404", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect(page.getByText(/router/i)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  });

  test("renders the theme chosen in the cookie on the server", async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: "theme", value: encodeURIComponent(btoa(JSON.stringify("dark"))), url: baseURL! }]);
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass("dark");
  });

  test("sets the theme with a plain form post and comes back", async ({ page }) => {
    await page.goto("/");
    const response = await page.request.post("/theme", {
      form: { theme: "dark", redirectTo: "/" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(response.ok()).toBe(true);
    await page.reload();
    await expect(page.locator("html")).toHaveClass("dark");
  });
});
