// Widget identity in the browser: an owner generates the agent's identity secret in the settings
// (shown once, with a copy button) and rotates it after a confirmation; a shop page whose script
// tag carries data-user-id and a data-user-hash signed with it chats, and the dashboard's
// conversation shows the verified contact; a single-page site identifies its visitor later with
// Parley.identify and the open conversation is bound, and Parley.reset starts afresh.
import { test, expect, type Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import { checkPage } from "./axe";
import { signIn, site, startParley, type Parley } from "./server";

let parley: Parley;
const sites: Awaited<ReturnType<typeof site>>[] = [];

const sign = (secret: string, userId: string) => createHmac("sha256", secret).update(userId).digest("hex");

function shopPage(attributes: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Shop</title></head>
<body><main><h1>Your account</h1></main>
<script src="${parley.url}/widget.js" data-agent-id="${parley.agentId}" ${attributes} async></script>
</body></html>`;
}

test.beforeAll(async () => {
  parley = await startParley({ agentSettings: { allowedDomains: ["shop.test"] } });
});

test.afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
  await parley?.stop();
});

async function chat(page: Page, text: string) {
  await page.getByRole("button", { name: "Open chat" }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  const sent = page.waitForResponse((r) => r.url().endsWith(`/widget/v1/agents/${parley.agentId}/messages`));
  await box.fill(text);
  await box.press("Enter");
  expect((await sent).status()).toBe(200);
  await expect(page.getByRole("log", { name: "Messages" }).locator(".msg.assistant .bubble").last()).not.toBeEmpty();
  // The text streams before the exchange is stored; the log is no longer busy once it is.
  await expect(page.getByRole("log", { name: "Messages" })).toHaveAttribute("aria-busy", "false");
}

const conversationOf = (page: Page) =>
  page.evaluate((agent) => localStorage.getItem(`parley:${agent}:conversation`), parley.agentId);

async function generate(page: Page): Promise<string> {
  await signIn(page, parley, `/agents/${parley.agentId}/settings`);
  await expect(page.getByText("No identity secret yet")).toBeVisible();
  await page.getByRole("button", { name: "Generate identity secret" }).click();
  const shown = page.getByLabel("New identity secret");
  await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await expect(page.getByText("Identity secret set")).toBeVisible();
  return (await shown.textContent())!;
}

test("a signed script tag binds the conversation to the contact the dashboard shows", async ({ page, context }) => {
  let secret = await generate(page);
  await checkPage(page, "agent-settings-identity");

  // Rotating asks first, and shows the new secret once.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByLabel("New identity secret")).toHaveCount(0);
  await page.getByRole("button", { name: "Rotate identity secret" }).click();
  await page.getByRole("dialog", { name: "Rotate the identity secret?" }).getByRole("button", { name: "Rotate secret" }).click();
  const rotated = (await page.getByLabel("New identity secret").textContent())!;
  expect(rotated).toMatch(/^[0-9a-f]{64}$/);
  expect(rotated).not.toBe(secret);
  secret = rotated;

  const shop = await site(shopPage(`data-user-id="user-42" data-user-hash="${sign(secret, "user-42")}"`));
  sites.push(shop);
  const visitor = await context.newPage();
  await visitor.goto(`http://shop.test:${shop.port}/`);
  await chat(visitor, "Where is my order?");
  const conversation = await conversationOf(visitor);
  expect(conversation).toMatch(/^cnv_/);

  const identity = parley.admin("conversation", "get", conversation!).identity;
  expect(identity.status).toBe("verified");
  expect(identity.externalId).toBe("user-42");
  expect(identity.contactId).toMatch(/^ctc_/);

  await page.goto(`${parley.url}/#/agents/${parley.agentId}/conversations/${conversation}`);
  const visitorFact = page.locator(".facts div", { has: page.locator("dt", { hasText: "Visitor" }) });
  await expect(visitorFact).toContainText("verified");
  await expect(visitorFact).toContainText("user-42");
  await expect(visitorFact).toContainText(identity.contactId);
  await checkPage(page, "conversation-identity");

  // The contact the signature made is the agent's (source identity).
  await page.goto(`${parley.url}/#/agents/${parley.agentId}/contacts`);
  await expect(page.getByRole("cell", { name: "user-42" })).toBeVisible();
});

test("Parley.identify binds the conversation a visitor already started", async ({ page }) => {
  const secret = parley.admin("agent", "identity-secret", parley.agentId, "--rotate").secret;
  const shop = await site(shopPage(""));
  sites.push(shop);
  await page.goto(`http://shop.test:${shop.port}/`);
  await chat(page, "Hello, anyone there?");
  const conversation = (await conversationOf(page))!;
  expect(parley.admin("conversation", "get", conversation).identity.status).toBe("anonymous");

  const identified = page.waitForResponse((r) => r.url().endsWith(`/conversations/${conversation}/identify`));
  await page.evaluate(
    ([userId, userHash]) => (window as any).Parley.identify({ userId, userHash }),
    ["user-77", sign(secret, "user-77")],
  );
  const answer = await (await identified).json();
  expect(answer.data.identity.status).toBe("verified");
  const stored = parley.admin("conversation", "get", conversation).identity;
  expect(stored.status).toBe("verified");
  expect(stored.externalId).toBe("user-77");
  expect(stored.contactId).toMatch(/^ctc_/);

  // Signed out: the widget forgets the conversation, and the next message starts a new one.
  await page.evaluate(() => (window as any).Parley.reset());
  await expect(page.getByRole("log", { name: "Messages" }).getByText("Hello, anyone there?")).toHaveCount(0);
  expect(await conversationOf(page)).toBeNull();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Is this a new chat?");
  await box.press("Enter");
  await expect.poll(() => conversationOf(page)).toMatch(/^cnv_/);
  const next = (await conversationOf(page))!;
  expect(next).not.toBe(conversation);
  await expect(page.getByRole("log", { name: "Messages" })).toHaveAttribute("aria-busy", "false");
  expect(parley.admin("conversation", "get", next).identity.status).toBe("anonymous");
});
