// Notion pages in Knowledge: the owner connects the workspace with an integration token (a
// refused token is said so and the token is never shown again), picks shared pages, imports them,
// sees them become trained workspace sources, and refreshes them. By accessible names.
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { fakeNotion } from "./fake-notion";
import { signIn, startParley, type Parley } from "./server";

const TOKEN = "ntn_4b1f0c2a9e7d4c3b8a6f5e0d1c2b3a49";
let parley: Parley;
let notion: Awaited<ReturnType<typeof fakeNotion>>;
test.beforeAll(async () => {
  notion = await fakeNotion(TOKEN, "Harbour HQ", [
    { id: "1c0e7a52-8f3b-4d6e-9a1b-2c3d4e5f6a70", title: "Opening hours", heading: "When we are open", paragraphs: ["Monday to Friday from 9 to 17.", "Closed on Sundays."] },
    { id: "2d1f8b63-9a4c-4e7f-8b2c-3d4e5f6a7b81", title: "Allergens", heading: "Allergens", paragraphs: ["All our soups are gluten free."] },
    { id: "3e2a9c74-0b5d-4f80-9c3d-4e5f6a7b8c92", title: "Staff rota", heading: "Rota", paragraphs: ["Ingrid works mornings."] },
  ]);
  parley = await startParley({ serveArgs: ["--notion-api-url", notion.url] });
});
test.afterAll(async () => {
  await parley?.stop();
  await notion?.close();
});

test("connect Notion, import two shared pages, see them trained, refresh them", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/knowledge`);
  const section = page.getByRole("region", { name: "Notion workspace" });
  const token = section.getByLabel("Integration token");

  await token.fill("ntn_not_the_right_one");
  await section.getByRole("button", { name: "Connect Notion" }).click();
  await expect(section.getByRole("alert")).toContainText("'token' was refused");
  await expect(token).toHaveAttribute("aria-invalid", "true");

  await token.fill(TOKEN);
  await section.getByRole("button", { name: "Connect Notion" }).click();
  await expect(section).toContainText("Connected to Harbour HQ since");
  await expect(section.getByLabel("Integration token")).toHaveCount(0); // never shown again

  await section.getByRole("button", { name: "Choose pages" }).click();
  const picker = section.getByRole("form", { name: "Choose pages to import" });
  await expect(picker.getByRole("checkbox")).toHaveCount(3);
  await expect(picker.getByRole("button", { name: "Import selected pages" })).toBeDisabled();
  await picker.getByLabel("Opening hours").check();
  await picker.getByLabel("Allergens").check();
  await checkPage(page, "agent-knowledge-workspace-pick");
  await picker.getByRole("button", { name: "Import selected pages" }).click();
  await expect(picker).toHaveCount(0);

  const imports = section.getByRole("table", { name: "Imported pages" });
  for (const title of ["Opening hours", "Allergens"]) {
    const row = imports.getByRole("row").filter({ hasText: title });
    await expect(row.getByRole("cell").nth(1)).toHaveText("done", { timeout: 15_000 });
    await expect(row.getByRole("cell").nth(2)).toHaveText("created");
  }
  const sources = page.getByRole("region", { name: "Sources" });
  const hours = sources.getByRole("row").filter({ hasText: "Opening hours" });
  await expect(hours.getByRole("cell").nth(1)).toHaveText("workspace");
  await expect(hours.getByRole("link")).toHaveAttribute("href", /^https:\/\/www\.notion\.so\/Opening-hours-1c0e7a528f3b/);
  await expect(hours.getByRole("cell").nth(3)).toHaveText("trained", { timeout: 15_000 });
  await expect(sources.getByRole("row").filter({ hasText: "Staff rota" })).toHaveCount(0);
  await checkPage(page, "agent-knowledge-workspace");

  // Refresh now: nothing changed in Notion, so both pages are unchanged.
  await section.getByRole("button", { name: "Refresh all workspace pages now" }).click();
  for (const title of ["Opening hours", "Allergens"]) {
    const row = imports.getByRole("row").filter({ hasText: title });
    await expect(row.getByRole("cell").nth(2)).toHaveText("unchanged", { timeout: 15_000 });
    await expect(row.getByRole("cell").nth(1)).toHaveText("done");
  }
  await imports.getByRole("button", { name: "Refresh now Allergens" }).click();
  await expect(imports.getByRole("row").filter({ hasText: "Allergens" }).getByRole("cell").nth(2)).toHaveText("unchanged", { timeout: 15_000 });

  // Disconnecting keeps what was imported.
  await section.getByRole("button", { name: "Disconnect Notion" }).click();
  await page.getByRole("dialog", { name: "Disconnect Notion?" }).getByRole("button", { name: "Disconnect" }).click();
  await expect(section.getByLabel("Integration token")).toBeVisible();
  await expect(hours).toHaveCount(1);
});
