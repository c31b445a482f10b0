// The audit log page: a change made in the dashboard appears with who made it and its old and new
// values, filters narrow it, secrets never show, and members below admin neither see the page's
// link nor read the log.
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  parley = await startParley({ agentName: "Front desk" });
});
test.afterAll(async () => {
  await parley?.stop();
});

test("a change made in the dashboard appears in the audit log", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/settings`);
  await page.getByLabel("Name", { exact: true }).fill("Help desk");
  await page.getByLabel("Provider API key").fill("sk-browser-secret-7");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const entries = page.getByRole("table", { name: "Audit log entries" });
  const row = entries.getByRole("row").filter({ hasText: "agent.update" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(parley.email);
  await expect(row).toContainText("name: Front desk → Help desk");
  await expect(row).toContainText("settings.llm.apiKey: — → [redacted]");
  await expect(row).toContainText("127.0.0.1");
  expect(await page.content()).not.toContain("sk-browser-secret-7");
  // The operator's own changes are there too, as the CLI.
  await expect(entries.getByRole("row").filter({ hasText: "agent.create" })).toContainText("admin CLI (");
  await checkPage(page, "audit");

  // Filters: by action, then by kind of target, then by a day long past.
  await page.getByLabel("Action").fill("member.");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(entries.getByRole("row").filter({ hasText: "agent.update" })).toHaveCount(0);
  await expect(entries.getByRole("row").filter({ hasText: "member.create" })).toHaveCount(1);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Changed").selectOption("agent");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(entries.getByRole("row").filter({ hasText: "member.create" })).toHaveCount(0);
  await expect(entries.getByRole("row").filter({ hasText: "agent.update" })).toHaveCount(1);
  await page.getByLabel("To").fill("2001-01-01");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No change matches these filters.")).toBeVisible();
});

test("an editor sees no audit log", async ({ page, request }) => {
  const email = "eddie@acme.test";
  const password = "editor password 1";
  parley.admin("member", "create", "--account", parley.accountId, "--email", email, "--role", "editor", "--password", password);
  await page.goto(`${parley.url}/#/audit`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expect(page.getByText("Only owners and admins can read the audit log.")).toBeVisible();
  const token = await page.evaluate(() => sessionStorage.getItem("parley:console-token"));
  const refused = await request.get(`${parley.url}/console/v1/audit`, { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");
});
