// Signing in and out of the dashboard, and the API's message for a wrong password.
import { expect, test } from "@playwright/test";
import { startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  parley = await startParley();
});
test.afterAll(async () => {
  await parley?.stop();
});

test("a wrong password shows the API's message; the right one signs in; Sign out ends the session", async ({ page, request }) => {
  await page.goto(parley.url + "/");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Parley" })).toBeVisible();

  await page.getByLabel("Email").fill(parley.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Email or password is incorrect.");
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);

  await page.getByLabel("Password").fill(parley.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const header = page.getByRole("banner");
  await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(header).toContainText("Acme");
  await expect(header).toContainText("Olivia Owner");
  await expect(header).toContainText("(owner)");
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Acme Support" })).toBeVisible();

  // The session survives a reload (the token is kept in sessionStorage) …
  const token = await page.evaluate(() => sessionStorage.getItem("parley:console-token"));
  expect(token).toMatch(/^cst_/);
  await page.reload();
  await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
  const me = await request.get(parley.url + "/console/v1/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);

  // … and Sign out ends it on the server too.
  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(page.getByText("You have signed out.")).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("parley:console-token"))).toBeNull();
  const after = await request.get(parley.url + "/console/v1/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});

test("a viewer sees no actions its role cannot do", async ({ page }) => {
  parley.admin("member", "create", "--account", parley.accountId, "--email", "vera@acme.test", "--role", "viewer", "--name", "Vera Viewer", "--password", "viewer password 1");
  await page.goto(parley.url + "/");
  await page.getByLabel("Email").fill("vera@acme.test");
  await page.getByLabel("Password").fill("viewer password 1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("banner")).toContainText("Vera Viewer (viewer)");
  await expect(page.getByRole("link", { name: "Acme Support" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create agent" })).toHaveCount(0);

  await page.getByRole("link", { name: "Acme Support" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
  await expect(page.getByLabel("Automatic refresh")).toBeDisabled();
  await page.getByRole("link", { name: "Knowledge" }).click();
  await expect(page.getByText("No sources yet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add Q&A" })).toHaveCount(0);
  for (const name of ["Add website", "Upload files", "Connect Notion"]) await expect(page.getByRole("button", { name })).toHaveCount(0);
  await expect(page.getByText("Drop files here to upload them.")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Notion workspace" })).toContainText("No Notion workspace is connected. An admin or the owner of the account can connect one.");
  await page.getByRole("link", { name: "Contacts" }).click();
  await expect(page.getByRole("button", { name: "Download CSV" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import contacts" })).toHaveCount(0);

  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("Admins and owners create and revoke keys; your role is viewer.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByText("Only owners change the plan.")).toBeVisible();
});
