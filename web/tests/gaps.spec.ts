// The support lead's loop in the browser: a visitor asks the widget a question the agent cannot
// answer and gives the reply a thumbs-down; the team member finds the question on the agent's Gaps
// tab, answers it in the "Answer this" dialog, and the same question asked again (in other words)
// is answered from the new pair. The transcript shows the rating and offers "Improve answer"; the
// conversations inbox shows the badges. Everything found by accessible names; axe on the Gaps tab.
import { test, expect, type Page } from "@playwright/test";
import { checkPage as check } from "./axe";
import { startParley, site, type Parley } from "./server";

let parley: Parley;
let shop: Awaited<ReturnType<typeof site>>;

const fallback = "Sorry, I don't have an answer to that yet.";

async function waitTrained(p: Parley) {
  for (let i = 0; i < 200; i++) {
    const list = p.admin("source", "list", "--agent", p.agentId);
    if (list.data.every((s: { status: string }) => s.status === "trained")) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error("training did not finish");
}

test.beforeAll(async () => {
  parley = await startParley({ agentSettings: { allowedDomains: ["shop.test"] } });
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "qa", "--question", "What are your opening hours?",
    "--answer", "We are open Monday to Friday from 9 am to 6 pm.");
  shop = await site(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ski Park</title></head>
<body><main><h1>Ski Park</h1></main>
<script src="${parley.url}/widget.js" data-agent-id="${parley.agentId}" async></script></body></html>`);
  await waitTrained(parley);
});

test.afterAll(async () => {
  await shop?.close();
  await parley?.stop();
});

const lastReply = (p: Page) => p.getByRole("log", { name: "Messages" }).locator(".msg.assistant .bubble").last();

async function ask(p: Page, text: string) {
  const box = p.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

async function openWidget(p: Page) {
  await p.goto(`http://shop.test:${shop.port}/`);
  await p.getByRole("button", { name: "Open chat" }).click();
  await expect(p.getByRole("dialog", { name: "Acme Support" })).toBeVisible();
}

test("a question the agent cannot answer becomes a gap; Answer this teaches it", async ({ page, context }) => {
  // The visitor asks, gets the fallback, and rates it down; then takes an up back.
  await openWidget(page);
  await ask(page, "How much is a day pass?");
  await expect(lastReply(page)).toContainText(fallback);
  const thumbs = page.getByRole("group", { name: "Rate this answer" }).last();
  // The first rating is held back on its way: the second click must still be the one stored.
  const ratings: string[] = [];
  let answered = 0;
  page.on("response", (r) => void (r.url().endsWith("/rating") && answered++));
  await page.route("**/rating", async (route) => {
    const rating = route.request().postDataJSON().rating;
    ratings.push(String(rating));
    if (ratings.length === 1) await new Promise((ok) => setTimeout(ok, 500));
    await route.continue();
  });
  await thumbs.getByRole("button", { name: "Helpful", exact: true }).click();
  await expect(thumbs.getByRole("button", { name: "Helpful", exact: true })).toHaveAttribute("aria-pressed", "true");
  await thumbs.getByRole("button", { name: "Not helpful" }).click();
  await expect(thumbs.getByRole("button", { name: "Not helpful" })).toHaveAttribute("aria-pressed", "true");
  await expect(thumbs.getByRole("button", { name: "Helpful", exact: true })).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => answered).toBe(2);
  expect(ratings).toEqual(["up", "down"]);
  await page.unroute("**/rating");
  const conversationId = await page.evaluate((k) => localStorage.getItem(k), `parley:${parley.agentId}:conversation`);
  const stored = parley.admin("conversation", "get", conversationId!).messages;
  expect(stored.map((m: { rating?: string | null }) => m.rating ?? null)).toEqual([null, "down"]);
  await expect(thumbs.getByRole("button", { name: "Not helpful" })).toHaveAttribute("aria-pressed", "true");
  // Asked again in other words: the same gap.
  await ask(page, "day pass price");
  await expect(lastReply(page)).toContainText(fallback);
  // The text streams before the exchange (and its gap) is stored; the log is no longer busy once it is.
  await expect(page.getByRole("log", { name: "Messages" })).toHaveAttribute("aria-busy", "false");

  // The team member signs in and opens the agent's Gaps tab.
  const team = await context.newPage();
  await team.goto(parley.url + "/");
  await team.getByLabel("Email").fill(parley.email);
  await team.getByLabel("Password").fill(parley.password);
  await team.getByRole("button", { name: "Sign in" }).click();
  await expect(team.getByRole("link", { name: "Acme Support" })).toBeVisible();
  await team.goto(`${parley.url}/#/agents/${parley.agentId}/gaps`);
  await expect(team.getByRole("heading", { name: "Gaps" })).toBeVisible();
  const row = team.getByRole("row").filter({ hasText: "How much is a day pass?" });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toHaveText("2");
  await check(team, "agent-gaps");

  await row.getByRole("button", { name: "Answer this: How much is a day pass?" }).click();
  const dialog = team.getByRole("dialog", { name: "Answer this" });
  await expect(dialog.getByLabel("Question")).toHaveValue("How much is a day pass?");
  await dialog.getByLabel("Answer").fill("The price of a day pass is 12 euros.");
  await dialog.getByRole("button", { name: "Save answer" }).click();
  await expect(dialog).toBeHidden();
  await expect(team.getByRole("status").filter({ hasText: "Answer saved" })).toBeVisible();
  await expect(team.getByText("No open gaps")).toBeVisible();
  await team.getByRole("button", { name: "Resolved" }).click();
  await expect(team.getByRole("row").filter({ hasText: "How much is a day pass?" })).toBeVisible();
  await waitTrained(parley);

  // Asked again: answered from the new pair.
  await ask(page, "day pass price");
  await expect(lastReply(page)).toContainText("The price of a day pass is 12 euros.");

  // The inbox shows the conversation's first question and its badges; the transcript its rating.
  await team.goto(`${parley.url}/#/agents/${parley.agentId}/conversations`);
  await team.getByRole("group", { name: "Filter conversations" }).getByRole("button", { name: "Rated low" }).click();
  const inboxRow = team.getByRole("row").filter({ hasText: "How much is a day pass?" });
  await expect(inboxRow).toHaveCount(1);
  await expect(inboxRow).toContainText("rated low");
  await check(team, "agent-conversations-inbox");
  await inboxRow.getByRole("link", { name: "Anonymous visitor" }).click();
  await expect(team.getByText("Rated not helpful")).toBeVisible();
  await expect(team.getByRole("button", { name: "Improve answer" }).first()).toBeVisible();
});
