// API keys: a new key is shown once, then only its prefix; a revoked key is gone and refused.
import { expect, test } from "@playwright/test";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  parley = await startParley();
});
test.afterAll(async () => {
  await parley?.stop();
});

test("create an API key (shown once) and revoke it", async ({ page, request }) => {
  await signIn(page, parley, "/keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("No active keys.")).toBeVisible();

  await page.getByLabel("Key name").fill("CRM sync");
  await page.getByLabel("Only the scopes I choose").check();
  await page.getByLabel("agents:read").check();
  await page.getByLabel("leads:read").check();
  await page.getByRole("button", { name: "Create key" }).click();

  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("it will not be shown again");
  const key = (await dialog.getByLabel("New API key").textContent())!;
  expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
  const prefix = key.slice(0, 12);

  // The key works against the public API with exactly the chosen scopes.
  const auth = { Authorization: `Bearer ${key}` };
  expect((await request.get(`${parley.url}/api/v1/agents`, { headers: auth })).status()).toBe(200);

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: "CRM sync" });
  await expect(row).toContainText(prefix + "…");
  await expect(row).toContainText("agents:read, leads:read");
  await expect(page.getByText(key)).toHaveCount(0);

  await page.reload();
  await expect(row).toContainText(prefix + "…");
  await expect(page.getByText(key)).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await row.getByRole("button", { name: "Revoke CRM sync" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke “CRM sync”?" });
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: "CRM sync" })).toHaveCount(0);
  await expect(page.getByText("No active keys.")).toBeVisible();

  const refused = await request.get(`${parley.url}/api/v1/agents`, { headers: auth });
  expect(refused.status()).toBe(401);
});

test("an owner changes the plan on Usage; on Free the key form shows the API's 403 message", async ({ page }) => {
  await signIn(page, parley, "/usage");
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(page.locator(".stat").first()).toContainText("pro");
  await expect(page.getByText(/^0 of 15,000$/)).toBeVisible();

  await page.getByLabel("Plan", { exact: true }).selectOption("free");
  await page.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByText("The plan is now free.")).toBeVisible();
  await expect(page.getByText(/^0 of 100$/)).toBeVisible();

  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("Blocked");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("alert")).toHaveText("API keys cannot be created on the Free plan.");
});
