// Records: an owner exports the agent's conversations (CSV and JSON Lines, with a date range),
// sets the conversation retention, and erases a contact after confirming, seeing what was removed;
// the erased person is gone from the contacts list and from the database's export.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  parley = await startParley();
  const messages = (text: string) => JSON.stringify([{ role: "user", content: text }, { role: "assistant", content: "Thanks!" }]);
  parley.admin("conversation", "create", "--agent", parley.agentId, "--created-at", "2026-01-10T09:00:00Z", "--messages", messages("Do you ship to Oslo?"));
  parley.admin("conversation", "create", "--agent", parley.agentId, "--created-at", "2026-02-10T09:00:00Z", "--messages", messages("Write to me at erin.erase@example.org"));
  parley.admin("record", "lead", "--agent", parley.agentId, "--email", "erin.erase@example.org", "--name", "Erin", "--source", "chat");
  parley.admin("record", "lead", "--agent", parley.agentId, "--email", "kim.kept@example.org", "--name", "Kim", "--source", "chat");
});
test.afterAll(async () => {
  await parley?.stop();
});

test("export the agent's conversations as CSV and JSON Lines", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/conversations`);
  const form = page.getByRole("form", { name: "Export conversations" });
  await expect(form).toBeVisible();
  await checkPage(page, "conversations-export");

  const csv = page.waitForEvent("download");
  await form.getByRole("button", { name: "Export conversations" }).click();
  const csvFile = await csv;
  expect(csvFile.suggestedFilename()).toMatch(new RegExp(`^conversations-${parley.agentId}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
  const csvText = readFileSync((await csvFile.path())!, "utf8");
  expect(csvText.startsWith("conversationId,channel,createdAt,")).toBe(true);
  expect(csvText).toContain("Do you ship to Oslo?");
  expect(csvText).toContain("Write to me at erin.erase@example.org");
  await expect(form.getByRole("status")).toContainText("Exported conversations-");

  await form.getByLabel("Export format").selectOption("jsonl");
  await form.getByLabel("From").fill("2026-01-01");
  await form.getByLabel("To").fill("2026-01-31");
  const jsonl = page.waitForEvent("download");
  await form.getByRole("button", { name: "Export conversations" }).click();
  const lines = readFileSync((await (await jsonl).path())!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(lines).toHaveLength(1);
  expect(lines[0].messages[0].content).toBe("Do you ship to Oslo?");
});

test("set how long conversations are kept", async ({ page }) => {
  await signIn(page, parley, "/usage");
  await page.getByLabel("Keep conversations for (days)").fill("90");
  await page.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Conversations are kept 90 days after their last activity.")).toBeVisible();
  expect(parley.admin("account", "get", parley.accountId).retentionDays).toBe(90);
  await page.getByRole("button", { name: "Keep for ever" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Conversations are kept for ever." })).toBeVisible();
  expect(parley.admin("account", "get", parley.accountId).retentionDays).toBeNull();
  await checkPage(page, "usage-retention");
});

test("erase a contact after confirming, with the report of what went", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/contacts`);
  const erin = page.getByRole("row").filter({ hasText: "erin.erase@example.org" });
  await expect(erin).toBeVisible();
  await erin.getByRole("button", { name: "Erase contact erin.erase@example.org" }).click();
  const dialog = page.getByRole("dialog", { name: "Erase contact" });
  await expect(dialog).toContainText("This cannot be undone.");
  await checkPage(page, "contacts-erase");
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel("Erasure report")).toContainText("Erased: 1 contact, 1 leads, 1 conversations, 2 messages");
  await expect(page.getByRole("row").filter({ hasText: "erin.erase@example.org" })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: "kim.kept@example.org" })).toBeVisible();
});
