// Every main page of the dashboard, on an account with some data: an axe-core check (WCAG 2 A
// and AA) that finds nothing serious or critical, and a full-page screenshot in
// build/screenshots/<page>.png.
import { expect, test } from "@playwright/test";
import { checkPage as check } from "./axe";
import { startParley, type Parley } from "./server";

let parley: Parley;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

test.beforeAll(async () => {
  parley = await startParley({
    agentSettings: {
      liveChat: true,
      showSources: true,
      handoffEmail: "support@acme.test",
      buttons: [{ label: "Shipping rates", url: "https://shop.test/shipping", keywords: ["delivery"] }],
      products: [{ name: "Travel kettle", url: "https://shop.test/kettle", keywords: ["delivery"], price: 39, currency: "EUR" }],
    },
  });
  const { admin, agentId, accountId } = parley;
  admin("member", "create", "--account", accountId, "--email", "eddie@acme.test", "--role", "editor", "--name", "Eddie Editor");
  admin("member", "create", "--account", accountId, "--email", "vera@acme.test", "--role", "viewer");
  admin("key", "create", "--account", accountId, "--name", "Zapier", "--scopes", "leads:read,conversations:read");
  admin("webhook", "add", "--agent", agentId, "--url", "https://hooks.example.com/parley", "--events", "lead.created,live_chat.requested", "--source", "tool_a");
  for (let d = 0; d < 14; d += 1) {
    const count = String(1 + ((d * 7) % 5));
    admin("conversation", "create", "--agent", agentId, "--count", count, "--created-at", daysAgo(d), "--country", "DE",
      "--messages", JSON.stringify([{ role: "user", content: "Can I change my delivery address?" }, { role: "assistant", content: "Yes, until the parcel ships." }]));
  }
  const chat = admin("conversation", "create", "--agent", agentId, "--messages",
    JSON.stringify([{ role: "user", content: "My kettle arrived broken. Can I talk to someone?" }]));
  admin("conversation", "set-live-chat", chat.id, "--status", "requested");
  admin("lead", "create", "--agent", agentId, "--email", "ann@example.com", "--name", "Ann Berg", "--phone", "+47 555 01 234");
  admin("lead", "create", "--agent", agentId, "--source", "chat", "--email", "lars@example.com");
  admin("contact", "import", "--agent", agentId, "--json", JSON.stringify([
    { email: "kim@example.com", name: "Kim Lee", attributes: { plan: "gold" } },
    { email: "sam@example.com", phone: "+15550100" },
  ]));
});
test.afterAll(async () => {
  await parley?.stop();
});

test("every main page passes axe (no serious or critical violations) and is screenshotted", async ({ page, request }) => {
  const agent = parley.agentId;
  // Sources to list on Knowledge, added as the dashboard does.
  const login = await (await request.post(`${parley.url}/console/v1/login`, { data: { email: parley.email, password: parley.password } })).json();
  const auth = { Authorization: `Bearer ${login.token}` };
  for (const data of [
    { type: "qa", question: "How long does delivery take?", answer: "Three to five working days in Europe." },
    { type: "qa", question: "Can I return an item?", answer: "Yes, within 30 days, in its original packaging." },
    { type: "text", title: "Shipping policy", content: "We ship from Oslo every working day. Orders before 14:00 leave the same day." },
  ]) {
    expect((await request.post(`${parley.url}/console/v1/agents/${agent}/sources`, { headers: auth, data })).status()).toBe(201);
  }

  await page.goto(parley.url + "/");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await check(page, "signin");

  await page.getByLabel("Email").fill(parley.email);
  await page.getByLabel("Password").fill(parley.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("link", { name: "Acme Support" })).toBeVisible();
  await check(page, "agents");

  const tab = async (slug: string, ready: () => Promise<void>) => {
    await page.goto(`${parley.url}/#/agents/${agent}/${slug}`);
    await ready();
    await check(page, "agent-" + slug);
  };
  await tab("settings", () => expect(page.getByLabel("Hand-off email")).toHaveValue("support@acme.test"));
  await tab("knowledge", () => expect(page.getByText("Training done: 3 of 3 sources trained.")).toBeVisible({ timeout: 8000 }));
  await tab("conversations", () => expect(page.locator("tbody tr")).toHaveCount(20));
  await page.locator("tbody tr").filter({ hasText: "widget · DE" }).first().click();
  await expect(page.locator("ol.transcript > li")).toHaveCount(2);
  await check(page, "agent-conversation");
  await tab("live-chat", async () => {
    await page.getByRole("button", { name: /Website visitor/ }).click();
    await page.getByRole("button", { name: "Take over" }).click();
    await expect(page.getByLabel("Reply")).toBeVisible();
  });
  await tab("leads", () => expect(page.locator("tbody tr")).toHaveCount(2));
  await tab("contacts", () => expect(page.locator("tbody tr")).toHaveCount(4)); // two imported, two from the leads
  await tab("webhooks", async () => {
    await expect(page.getByText("via tool_a")).toBeVisible();
    await page.getByRole("button", { name: "Deliveries of https://hooks.example.com/parley" }).click();
    await expect(page.getByRole("heading", { name: "Deliveries to https://hooks.example.com/parley" })).toBeVisible();
  });
  await tab("try", async () => {
    await page.getByLabel("Message").fill("How long does delivery take?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.locator("ol.transcript > li").nth(1)).toContainText("Three to five working days in Europe.");
    const reply = page.locator("ol.transcript > li").nth(1);
    await expect(reply).toHaveAttribute("aria-busy", "false");
    await expect(reply.getByRole("link", { name: "Shipping rates" })).toHaveAttribute("href", "https://shop.test/shipping");
    await expect(reply.getByRole("list", { name: "Products" })).toContainText("Travel kettle39 EUR");
    await expect(reply.locator(".sources")).toContainText("How long does delivery take?");
  });

  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Zapier" })).toBeVisible();
  await check(page, "keys");
  await page.getByRole("link", { name: "Team" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(3);
  await check(page, "team");
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("img", { name: "Messages per day, last 30 days" })).toBeVisible();
  await check(page, "usage");
});
