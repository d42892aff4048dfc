import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Signs up a fresh adult player through the form and gives them a username. */
export async function signUpWithUsername(page: Page): Promise<{ email: string; username: string }> {
  const id = unique();
  const email = `e2e-${id}@example.com`;
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  const username = `p_${id}`.slice(0, 20);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(dialog).toHaveCount(0);
  return { email, username };
}

/** Signs an API client in as a demo account (the form post a browser would make). */
export async function signInRequest(request: APIRequestContext, baseURL: string, email: string, password: string) {
  const response = await request.post("/api/login", {
    form: { intent: "signin", email, password },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

export async function toastText(page: Page) {
  return page.getByTestId("toast").innerText();
}
