import { expect, test, type Page } from "@playwright/test";
import { keepToasts } from "./support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/** Runs in every project: desktop, mobile and JavaScript disabled. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function signUp(page: Page, email: string, password: string) {
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
}

test("sign up, choose a username, sign out and sign in again", async ({ page }) => {
  const id = unique();
  const email = `e2e-${id}@example.com`;
  const password = "correct horse battery staple";
  await signUp(page, email, password);

  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Username").fill("ab");
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(page.getByTestId("toast")).toContainText("Username Too Short");

  const username = `p_${id}`.slice(0, 20);
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(page.getByTestId("toast")).toContainText("Username Created!");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("welcome-name")).toHaveText(username);

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("link", { name: "Login to Play" })).toBeVisible();

  await page.goto("/api/login");
  const signIn = page.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Email").fill(email.toUpperCase());
  await signIn.getByLabel("Password").fill(password);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("welcome-name")).toHaveText(username);
});

test("refuses a minor with a clear message", async ({ page }) => {
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(`minor-${unique()}@example.com`);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill(`${new Date().getUTCFullYear() - 10}-01-01`);
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  // Said at the top of the form and beside the date, which is marked invalid.
  await expect(page.getByTestId("form-error-summary")).toContainText("You must be 18 or older to play");
  await expect(form.getByLabel("Date of birth")).toHaveAttribute("aria-invalid", "true");
});

test("sends a signed-out visitor to sign in and back to where they were going", async ({ page }) => {
  await page.goto("/admin-access");
  await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
  await expect(page.getByText("Please login first to access this area.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Homepage" })).toHaveAttribute("href", "/");
  await page.goto("/onboarding");
  await expect(page).toHaveURL(/\/api\/login\?returnTo=%2Fonboarding$/);
  await page.goto("/api/login?returnTo=%2Fadmin-access");
  const signIn = page.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Email").fill("player@demo.test");
  await signIn.getByLabel("Password").fill("demo-player-pass");
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Access Restricted" })).toBeVisible();
  await expect(page.getByText("This area is restricted to authorized personnel only.")).toBeVisible();
});

test("refuses a forged cross-site form post", async ({ request }) => {
  const response = await request.post("/api/logout", { headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
  expect(response.status()).toBe(403);
  expect(await response.json()).toEqual({ message: "Cross-site request refused" });
  const noOrigin = await request.post("/theme", { form: { theme: "dark" }, headers: { Origin: "" }, maxRedirects: 0 });
  expect(noOrigin.status()).toBe(403);
});
