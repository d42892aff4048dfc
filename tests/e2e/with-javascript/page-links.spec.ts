import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "../support";

/**
 * The home page's links to other pages (Quick Raffles, Join VIP, Withdraw) go through the
 * router once the page is hydrated: the next page's data comes as data, with no page load
 * and no server render of the document (ADR 096). Without JavaScript they are plain links.
 */
test("the hero's Quick Raffles link brings /quick without loading a document", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const documents: string[] = [];
  const data: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
    else if (new URL(request.url()).pathname === "/quick.data") data.push(request.url());
  });

  await page.getByTestId("hero-actions").getByRole("link", { name: "Quick Raffles" }).click();
  await expect(page).toHaveURL(/\/quick$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/quick/i);
  expect(documents).toEqual([]);
  expect(data).toHaveLength(1);
});
