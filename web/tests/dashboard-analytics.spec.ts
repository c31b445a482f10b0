// The Analytics tab: conversations made through `parley admin` on days of the last two weeks show
// in charts found by their accessible names; each chart's table alternative holds the same
// figures as the console API; the period picker asks for another period; axe finds nothing
// serious or critical.
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

test.beforeAll(async () => {
  parley = await startParley({ agentSettings: { handoffEmail: "support@acme.test" } });
  const { admin, agentId } = parley;
  const talk = JSON.stringify([
    { role: "user", content: "Can I change my delivery address?" },
    { role: "assistant", content: "Yes, until the parcel ships." },
  ]);
  for (let d = 1; d <= 6; d += 1) {
    for (let i = 0; i < d; i += 1) {
      const conv = admin("conversation", "create", "--agent", agentId, "--created-at", daysAgo(d), "--messages", talk);
      if (i === 0) admin("conversation", "set-csat", conv.id, "--score", String(1 + (d % 5)));
      if (i === 1) admin("conversation", "set-handoff", conv.id);
    }
  }
});
test.afterAll(async () => {
  await parley?.stop();
});

test("charts are found by their names and their tables match the API", async ({ page, request }) => {
  const login = await (await request.post(`${parley.url}/console/v1/login`, { data: { email: parley.email, password: parley.password } })).json();
  const api = await (await request.get(`${parley.url}/console/v1/agents/${parley.agentId}/analytics`, {
    headers: { Authorization: `Bearer ${login.token}` },
  })).json();
  const days: any[] = api.data.days;
  expect(api.data.totals.conversations).toBe(21);

  await signIn(page, parley, `/agents/${parley.agentId}/analytics`);
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  for (const name of ["Conversations per day", "Answered and fallback replies per day", "Resolution and hand-off rates per day", "Average CSAT per day"]) {
    await expect(page.getByRole("img", { name: `${name} chart` })).toBeVisible();
    await expect(page.getByRole("img", { name: `${name} chart` }).locator("canvas").first()).toBeAttached();
  }
  await expect(page.getByRole("group", { name: "Conversations", exact: true })).toContainText("21");

  // The table alternative of the conversations chart: every day's figures as the API gave them.
  await page.getByText("Conversations per day: table").click();
  const table = page.getByRole("table", { name: "Conversations per day" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(days.length + 1);
  for (const day of days.filter((d) => d.conversations > 0)) {
    const row = table.getByRole("row", { name: new RegExp("^" + day.date) });
    await expect(row.getByRole("cell").nth(0)).toHaveText(String(day.conversations));
    await expect(row.getByRole("cell").nth(1)).toHaveText(String(day.handoffs));
  }
  await page.getByText("Average CSAT per day: table").click();
  const csat = page.getByRole("table", { name: "Average CSAT per day" });
  for (const day of days.filter((d) => d.csat.count > 0)) {
    const row = csat.getByRole("row", { name: new RegExp("^" + day.date) });
    await expect(row.getByRole("cell").nth(0)).toHaveText(String(day.csat.average));
  }
  await checkPage(page, "agent-analytics");

  // Another period: the charts are drawn again, and the table lists the last 7 days.
  await page.getByRole("button", { name: "Last 7 days" }).click();
  await expect(page.getByText(`${days[days.length - 7].date} to ${days[days.length - 1].date}`)).toBeVisible();
  await page.getByText("Conversations per day: table").click();
  await expect(table.getByRole("row")).toHaveCount(8);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(days[days.length - 7].date);
});

test("an admin sets the account's time zone; a name that is not one is refused", async ({ page }) => {
  await signIn(page, parley, "/usage");
  const zone = page.getByRole("combobox", { name: "Time zone" });
  await zone.fill("Mars/Olympus");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.getByRole("alert")).toContainText("'timeZone'");
  await zone.fill("Europe/Paris");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Europe/Paris" })).toBeVisible();
  expect(parley.admin("account", "get", parley.accountId).timeZone).toBe("Europe/Paris");
  await page.goto(`${parley.url}/#/agents/${parley.agentId}/analytics`);
  await expect(page.getByText("time zone (Europe/Paris)")).toBeVisible();
});
