// The whole live chat, through both pages: a visitor on a shop's site asks the widget for a person;
// the request appears in a signed-in member's dashboard inbox without a reload; the member takes
// over and replies in the dashboard; the visitor sees the reply in the widget, and the member sees
// the visitor's answer.
import { expect, test } from "@playwright/test";
import { signIn, site, startParley, type Parley } from "./server";

let parley: Parley;
let shop: Awaited<ReturnType<typeof site>>;
test.beforeAll(async () => {
  parley = await startParley({ agentSettings: { liveChat: true, allowedDomains: ["shop.test"] } });
  shop = await site(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main>
<script src="${parley.url}/widget.js" data-agent-id="${parley.agentId}" async></script></body></html>`);
});
test.afterAll(async () => {
  await shop?.close();
  await parley?.stop();
});

test("a visitor's request reaches the inbox live; the member takes over and the visitor sees the reply", async ({ browser }) => {
  const member = await (await browser.newContext()).newPage();
  await signIn(member, parley, `/agents/${parley.agentId}/live-chat`);
  await expect(member.getByRole("heading", { name: "Inbox (0)" })).toBeVisible();
  await member.evaluate(() => ((window as any).__sameDocument = true));

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`http://shop.test:${shop.port}/`);
  await visitor.getByRole("button", { name: "Open chat" }).click();
  await visitor.getByRole("textbox", { name: "Message" }).fill("Can I talk to a person?");
  await visitor.getByRole("button", { name: "Send", exact: true }).click();
  await visitor.getByRole("button", { name: "Yes, please" }).click();
  await expect(visitor.getByRole("log").getByText("Waiting for a team member…")).toBeVisible();

  // The inbox shows the request without a reload of the dashboard.
  await expect(member.getByRole("heading", { name: "Inbox (1)" })).toBeVisible();
  expect(await member.evaluate(() => (window as any).__sameDocument)).toBe(true);
  await member.locator(".inbox-item").first().click();
  await expect(member.locator("ol.transcript")).toContainText("Can I talk to a person?");
  await member.getByRole("button", { name: "Take over" }).click();
  await expect(visitor.getByRole("log").getByText("A team member has joined the chat.")).toBeVisible();
  await member.getByLabel("Reply").fill("Hello, Olivia here. How can I help?");
  await member.getByRole("button", { name: "Send reply" }).click();

  const team = visitor.getByRole("log").locator(".msg.team");
  await expect(team).toHaveCount(1);
  await expect(team).toContainText("Hello, Olivia here. How can I help?");
  await expect(team).toContainText("Olivia (team)");

  // The visitor answers; the member's open transcript shows it, and the agent stays silent.
  const agentReplies = await visitor.getByRole("log").locator(".msg.assistant").count();
  await visitor.getByRole("textbox", { name: "Message" }).fill("My order A-1001 has not arrived.");
  await visitor.getByRole("button", { name: "Send", exact: true }).click();
  await expect(member.locator("ol.transcript")).toContainText("My order A-1001 has not arrived.");
  await expect(visitor.getByRole("button", { name: "Send", exact: true })).toBeEnabled();
  await expect(visitor.getByRole("log").locator(".msg.assistant")).toHaveCount(agentReplies);

  await member.getByRole("button", { name: "End chat" }).click();
  await expect(member.getByRole("heading", { name: "Inbox (0)" })).toBeVisible();
  await expect(visitor.getByRole("log").getByText("The live chat has ended.")).toBeVisible();
});
