// The agent page: knowledge training shown live, finding and reading a conversation, the
// settings form's API validation, and the live-chat inbox updating by itself.
import { expect, test } from "@playwright/test";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  // Training waits 2.5 s before a source is picked up, so "pending" is visible first, even on a busy machine.
  parley = await startParley({ agentSettings: { liveChat: true }, serveArgs: ["--training-delay-ms", "2500"] });
});
test.afterAll(async () => {
  await parley?.stop();
});

test("a Q&A pair added in Knowledge becomes trained without a reload", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/knowledge`);
  await expect(page.getByRole("heading", { level: 2, name: "Knowledge" })).toBeVisible();
  await expect(page.getByText("No sources yet.")).toBeVisible();
  await expect(page.locator(".title-row .badge").first()).toHaveText("untrained");
  await page.evaluate(() => ((window as any).__sameDocument = true));

  await page.getByLabel("Question").fill("Do you ship to Norway?");
  await page.getByLabel("Answer").fill("Yes, we ship to Norway in 3 to 5 working days.");
  await page.getByRole("button", { name: "Add Q&A" }).click();

  const row = page.getByRole("row").filter({ hasText: "Do you ship to Norway?" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^(pending|processing)$/);
  await expect(page.getByRole("status").filter({ hasText: "Training:" })).toContainText("0 of 1 sources trained");
  await expect(page.getByLabel("Question")).toHaveValue("");

  await expect(row.getByRole("cell").nth(3)).toHaveText("trained", { timeout: 8000 });
  await expect(page.getByText("Training done: 1 of 1 sources trained.")).toBeVisible();
  await expect(page.locator(".title-row .badge").first()).toHaveText("trained"); // the agent's own status follows
  expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);

  await row.getByRole("button", { name: "Delete Do you ship to Norway?" }).click();
  await page.getByRole("dialog", { name: "Delete this source?" }).getByRole("button", { name: "Delete source" }).click();
  await expect(page.getByText("No sources yet.")).toBeVisible();
});

test("a conversation is found by a word in it and its transcript opens", async ({ page }) => {
  const filler = JSON.stringify([
    { role: "user", content: "Where is my parcel?" },
    { role: "assistant", content: "It is on its way." },
  ]);
  parley.admin("conversation", "create", "--agent", parley.agentId, "--count", "21", "--messages", filler, "--created-at", "2026-01-01T10:00:00.000Z");
  const wanted = parley.admin("conversation", "create", "--agent", parley.agentId, "--country", "NO", "--page", "https://shop.test/returns",
    "--messages", JSON.stringify([
      { role: "user", content: "How do I get a refund for a broken kettle?" },
      { role: "assistant", content: "Send it back within 30 days for a full refund.", sources: [{ title: "Refund policy", url: "https://shop.test/refunds" }] },
    ]));
  parley.admin("conversation", "set-csat", wanted.id, "--score", "4", "--comment", "Quick answer");

  await signIn(page, parley, `/agents/${parley.agentId}/conversations`);
  const body = page.locator("tbody");
  await expect(body.getByRole("row")).toHaveCount(20);
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Page 2")).toBeVisible();
  await expect(body.getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(body.getByRole("row")).toHaveCount(20);

  await page.getByLabel("Search conversations").fill("KETTLE");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(body.getByRole("row")).toHaveCount(1);
  await expect(body.getByRole("row")).toContainText("widget · NO");
  await expect(body.getByRole("row")).toContainText("4 / 5");
  await body.getByRole("row").click();

  await expect(page).toHaveURL(new RegExp(`#/agents/${parley.agentId}/conversations/${wanted.id}$`));
  await expect(page.getByRole("heading", { level: 2, name: "Conversation" })).toBeVisible();
  const messages = page.locator("ol.transcript > li");
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText("Visitor");
  await expect(messages.nth(0)).toContainText("How do I get a refund for a broken kettle?");
  await expect(messages.nth(1)).toContainText("Agent");
  await expect(messages.nth(1).getByRole("link", { name: "Refund policy" })).toHaveAttribute("href", "https://shop.test/refunds");
  await expect(page.locator("dl.facts")).toContainText("Channelwidget");
  await expect(page.locator("dl.facts")).toContainText("CSAT4 / 5 — “Quick answer”");
  await expect(page.locator("dl.facts")).toContainText("Pagehttps://shop.test/returns");

  await page.getByRole("link", { name: "← All conversations" }).click();
  await page.getByLabel("Search conversations").fill("no such words anywhere");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No conversation has a message with “no such words anywhere”.")).toBeVisible();
});

test("the settings form shows the API's validation message and saves a good value", async ({ page, request }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/settings`);
  const threshold = page.getByLabel("Answer threshold");
  await threshold.fill("1.5");
  await page.getByLabel("Allowed domains").fill("shop.test\nhelp.shop.test");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert")).toHaveText("Setting 'answerThreshold' must be between 0 and 1.");
  await expect(threshold).toHaveAttribute("aria-invalid", "true");
  await expect(threshold).toBeFocused();

  await threshold.fill("0.5");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  const token = await page.evaluate(() => sessionStorage.getItem("parley:console-token"));
  const agent = await (await request.get(`${parley.url}/console/v1/agents/${parley.agentId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(agent.data.settings).toMatchObject({ answerThreshold: 0.5, allowedDomains: ["shop.test", "help.shop.test"], liveChat: true });
});

test("every setting has a field: tools as JSON whose secrets stay hidden, lists one per line", async ({ page, request }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/settings`);
  const servers = page.getByLabel("MCP servers (JSON)");
  await servers.fill('[{"name": "shop", "url": "ftp://mcp.shop.example/mcp"}]');
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert")).toHaveText("Setting 'mcpServers[0].url' must be an http or https URL.");
  await expect(servers).toHaveAttribute("aria-invalid", "true");
  await expect(servers).toBeFocused();

  await servers.fill('[{"name": "shop", "url": "https://mcp.shop.example/mcp", "headerName": "Authorization", "headerValue": "Bearer s3cret-shop", "allowedTools": ["lookup_order"]}]');
  await page.getByLabel("Web search (JSON)").fill('{"enabled": true, "url": "https://searx.example.org"}');
  await page.getByLabel("Synonyms (JSON)").fill('[["bike", "bicycle"]]');
  await page.getByLabel("Blocked countries").fill("de\nFR");
  await page.getByLabel("Messages per visitor").fill("40");
  await page.getByLabel("Save contact details written in a chat as a lead").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The form shows what was stored, the secret masked.
  await expect(servers).not.toHaveValue(/s3cret/);
  await expect(servers).toHaveValue(/"headerValue": "\*{8}"/);

  // Changing only the tools sends the masked value back, which keeps the secret.
  await servers.fill((await servers.inputValue()).replace('"lookup_order"', '"lookup_order",\n"track_parcel"'));
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  const token = await page.evaluate(() => sessionStorage.getItem("parley:console-token"));
  const agent = await (await request.get(`${parley.url}/console/v1/agents/${parley.agentId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(agent.data.settings).toMatchObject({
    mcpServers: [{ name: "shop", url: "https://mcp.shop.example/mcp", headerName: "Authorization", headerValue: "********", allowedTools: ["lookup_order", "track_parcel"] }],
    webSearch: { enabled: true, url: "https://searx.example.org" },
    synonyms: [["bike", "bicycle"]],
    blockedCountries: ["de", "FR"],
    messagesPerVisitor: 40,
    saveContactDetails: true,
  });

  // A changed url must carry the secret again: the masked value is refused.
  await servers.fill((await servers.inputValue()).replace("mcp.shop.example", "mcp.elsewhere.example"));
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert")).toContainText("mcpServers[0].headerValue");
  await expect(servers).toHaveAttribute("aria-invalid", "true");

  // Emptied fields remove their settings.
  await page.reload();
  await page.getByLabel("MCP servers (JSON)").fill("");
  await page.getByLabel("Blocked countries").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  const after = await (await request.get(`${parley.url}/console/v1/agents/${parley.agentId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(after.data.settings.mcpServers).toBeUndefined();
  expect(after.data.settings.blockedCountries).toBeUndefined();
  expect(after.data.settings.webSearch).toEqual({ enabled: true, url: "https://searx.example.org" });
});

test("the live-chat inbox updates by itself; take over, reply, end", async ({ page }) => {
  const chat = parley.admin("conversation", "create", "--agent", parley.agentId, "--messages",
    JSON.stringify([{ role: "user", content: "I want to talk to a person" }]));
  await signIn(page, parley, `/agents/${parley.agentId}/live-chat`);
  await expect(page.getByText("Live: updates appear as they happen.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Inbox (0)" })).toBeVisible();

  parley.admin("conversation", "set-live-chat", chat.id, "--status", "requested");
  await expect(page.getByRole("heading", { name: "Inbox (1)" })).toBeVisible();
  await page.getByRole("button", { name: /Website visitor/ }).click();
  const transcript = page.locator("ol.transcript > li");
  await expect(transcript).toHaveCount(1);

  await page.getByRole("button", { name: "Take over" }).click();
  await page.getByLabel("Reply").fill("Hello, Olivia here. How can I help?");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(transcript).toHaveCount(2);
  await expect(transcript.nth(1)).toContainText("Olivia (team)");

  // A visitor message written elsewhere reaches the open transcript through the inbox event.
  parley.admin("conversation", "add-message", chat.id, "--role", "user", "--content", "My order number is 4411");
  await expect(transcript).toHaveCount(3);
  await expect(transcript.nth(2)).toContainText("My order number is 4411");

  await page.getByRole("button", { name: "End chat" }).click();
  await expect(page.getByRole("heading", { name: "Inbox (0)" })).toBeVisible();
});

test("Leads and Contacts download every page as RFC 4180 CSV", async ({ page }) => {
  parley.admin("lead", "create", "--agent", parley.agentId, "--email", "ann@example.com", "--name", 'Ann "Annie" Berg, Oslo', "--phone", "+4755501234");
  const contacts = Array.from({ length: 23 }, (_, i) => ({ email: `person${String(i).padStart(2, "0")}@example.com`, name: `Person ${i}` }));
  parley.admin("contact", "import", "--agent", parley.agentId, "--json", JSON.stringify(contacts));

  await signIn(page, parley, `/agents/${parley.agentId}/leads`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  let download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  let file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^leads-${parley.agentId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  let csv = await readDownload(file);
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe("Id,Conversation,Name,Email,Phone,Source,Other fields,Submissions,Collected,Last seen");
  expect(lines[1]).toMatch(/^lead_\w+,,"Ann ""Annie"" Berg, Oslo",ann@example.com,\+4755501234,form,,1,\d{4}-/);
  expect(lines).toHaveLength(3); // header, one lead, and the final CRLF
  await expect(page.getByText("Downloaded 1 lead.")).toBeVisible();

  // 23 imported contacts and the lead's contact: two pages on screen, one file.
  await page.getByRole("link", { name: "Contacts" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(20);
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(4);
  download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  file = await download;
  csv = await readDownload(file);
  const rows = csv.trimEnd().split("\r\n");
  expect(rows[0]).toBe("Id,Name,Email,Phone,External id,Source,Attributes,First seen,Last seen");
  expect(rows).toHaveLength(25);
  expect(new Set(rows.slice(1).map((r) => r.split(",")[0])).size).toBe(24);
});

test("webhooks: add (secret shown once), pause, resume, remove; the API's message for a bad URL", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/webhooks`);
  await page.getByLabel("Webhook URL").fill("http://hooks.example.com/parley");
  await page.getByLabel("lead.created").check();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("alert")).toHaveText("'url' must start with https://.");

  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/parley");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.locator(".secret-value")).toHaveText(/^whsec_/);
  const row = page.getByRole("row").filter({ hasText: "https://hooks.example.com/parley" });
  await expect(row).toContainText("via api");
  await expect(row).toContainText("Dashboard");
  await expect(row).toContainText("active");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.locator(".secret-value")).toHaveCount(0);

  await row.getByRole("button", { name: "Pause https://hooks.example.com/parley" }).click();
  await expect(row.locator(".badge.paused")).toHaveText("paused");
  await row.getByRole("button", { name: "Resume https://hooks.example.com/parley" }).click();
  await expect(row.locator(".badge.active")).toHaveText("active");
  await row.getByRole("button", { name: "Deliveries of https://hooks.example.com/parley" }).click();
  await expect(page.getByText("Nothing has been sent to this webhook yet.")).toBeVisible();

  await row.getByRole("button", { name: "Remove https://hooks.example.com/parley" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove webhook" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No webhooks yet.")).toBeVisible();
});

async function readDownload(file: import("@playwright/test").Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await file.createReadStream())!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
