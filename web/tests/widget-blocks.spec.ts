// What a reply carries besides text (sources, link buttons, product cards, suggested questions, the
// contact-details form, a chat form, meeting slots), an axe-core check of the open panel, an error
// answer shown in an alert, and a live chat with a team member through the console API.
import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { startParley, site, type Parley } from "./server";

const allDay = [["00:00", "24:00"]];
const settings = {
  allowedDomains: ["shop.test"],
  showSources: true,
  followUps: true,
  liveChat: true,
  messagesPerVisitor: 4,
  buttons: [{ label: "Shop all jackets", url: "https://shop.example/jackets", keywords: ["jacket", "coat"] }],
  products: [
    { name: "Blue Jacket", url: "https://shop.example/blue-jacket", price: 79.5, compareAtPrice: 99, currency: "EUR", available: true, keywords: ["jacket"] },
    { name: "Wool Hat", url: "https://shop.example/wool-hat", price: 19, currency: "EUR", available: false, keywords: ["jacket", "hat"] },
  ],
  leadForm: { message: "Leave your details and we will get back to you.", fields: ["name", "email", "phone"] },
  forms: [
    {
      id: "return",
      name: "Return request",
      fields: [
        { id: "order", label: "Order number", type: "text", required: true },
        { id: "reason", label: "Reason", type: "textarea", required: false },
      ],
      submitLabel: "Request return",
      keywords: ["return my"],
    },
  ],
  booking: {
    eventTitle: "Product demo",
    eventLength: 30,
    timeZone: "UTC",
    daysAhead: 2,
    availability: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
  },
};

let parley: Parley;
let shop: Awaited<ReturnType<typeof site>>;
let token = "";

async function consoleApi(method: string, path: string, body?: unknown) {
  const res = await fetch(parley.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  return res.json();
}

test.beforeAll(async () => {
  parley = await startParley({ agentSettings: settings, serveArgs: ["--widget-visitors-per-address", "50"] });
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "text", "--title", "Jackets", "--content",
    "The Blue Jacket is our warmest winter jacket. The price of the Blue Jacket is 79.50 euros, down from 99 euros. It is filled with recycled down.");
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "qa", "--question", "What sizes does the Blue Jacket come in?",
    "--answer", "The Blue Jacket comes in sizes XS to XXL.");
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "qa", "--question", "Is the Blue Jacket waterproof?",
    "--answer", "Yes, the Blue Jacket is fully waterproof.");
  shop = await site(`<!doctype html><html lang="en"><head><title>Acme Shop</title></head>
<body><main><h1>Acme Shop</h1><p>Winter jackets.</p></main>
<script src="${parley.url}/widget.js" data-agent-id="${parley.agentId}" async></script></body></html>`);
  const login = await fetch(parley.url + "/console/v1/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: parley.email, password: parley.password }),
  });
  token = (await login.json()).token;
  for (let i = 0; ; i++) {
    const list = parley.admin("source", "list", "--agent", parley.agentId);
    if (list.data.every((s: { status: string }) => s.status === "trained")) break;
    if (i > 100) throw new Error("training did not finish");
    await new Promise((ok) => setTimeout(ok, 100));
  }
});

test.afterAll(async () => {
  await shop?.close();
  await parley?.stop();
});

async function openWidget(page: Page) {
  await page.goto(`http://shop.test:${shop.port}/`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
}

async function ask(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

const lastMessage = (page: Page) => page.getByRole("log", { name: "Messages" }).locator(".msg.assistant").last();

async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).include("parley-chat").withTags(["wcag2a", "wcag2aa"]).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
  expect(result.passes.length).toBeGreaterThan(5); // the widget was examined, not skipped
}

test("a reply's sources, link buttons, products and suggested questions; axe finds nothing serious", async ({ page }) => {
  await openWidget(page);
  await ask(page, "How much is the Blue Jacket?");
  const reply = lastMessage(page);
  await expect(reply.locator(".bubble")).toContainText("79.50 euros");

  await expect(reply.getByRole("link", { name: "Shop all jackets" })).toHaveAttribute("href", "https://shop.example/jackets");
  const products = reply.getByRole("list", { name: "Products" }).getByRole("listitem");
  await expect(products).toHaveCount(2);
  await expect(products.nth(0).getByRole("link", { name: "Blue Jacket" })).toHaveAttribute("href", "https://shop.example/blue-jacket");
  await expect(products.nth(0)).toContainText("€79.50");
  await expect(products.nth(0)).toContainText("was €99.00");
  await expect(products.nth(1)).toContainText("Wool Hat");
  await expect(products.nth(1)).toContainText("Out of stock");
  await expect(reply.getByText("Sources")).toBeVisible();
  await expect(reply.getByText("Jackets", { exact: true })).toBeVisible();

  await expectAccessible(page);

  // A suggested question sends itself and gets its answer.
  const suggestions = reply.getByRole("group", { name: "Suggested questions" });
  const question = suggestions.getByRole("button", { name: "What sizes does the Blue Jacket come in?" });
  await expect(question).toBeVisible();
  await question.click();
  await expect(page.getByRole("log").locator(".msg.user").last()).toHaveText(/What sizes does the Blue Jacket come in\?/);
  await expect(lastMessage(page).locator(".bubble")).toContainText("The Blue Jacket comes in sizes XS to XXL.");
  // Only the newest reply offers suggestions.
  await expect(page.getByRole("log").locator(".msg.assistant").first().getByRole("group", { name: "Suggested questions" })).toHaveCount(0);
});

test("the contact-details form, a chat form and meeting slots send what the visitor entered", async ({ page }) => {
  await openWidget(page);

  await ask(page, "Could you please contact me?");
  const lead = page.getByRole("form", { name: "Contact details" });
  await expect(lead).toContainText("Leave your details and we will get back to you.");
  await lead.getByLabel("Name").fill("Jane Visitor");
  await lead.getByLabel("Email").fill("jane@example.com");
  const contact = page.waitForResponse((r) => r.url().endsWith("/contact"));
  await lead.getByRole("button", { name: "Send my details" }).click();
  expect((await contact).status()).toBe(201);
  await expect(page.getByRole("status").filter({ hasText: "Thank you, we will be in touch." })).toBeVisible();
  const leads = await consoleApi("GET", `/console/v1/agents/${parley.agentId}/leads`);
  expect(leads.data.map((l: { email: string; name: string; source: string }) => [l.email, l.name, l.source])).toContainEqual(["jane@example.com", "Jane Visitor", "form"]);

  await ask(page, "I want to return my order");
  const form = page.getByRole("form", { name: "Return request" });
  await form.getByLabel("Order number").fill("A-1001");
  await form.getByLabel("Reason").fill("Too small");
  const submitted = page.waitForResponse((r) => r.url().endsWith("/form"));
  await form.getByRole("button", { name: "Request return" }).click();
  const formResponse = await submitted;
  expect(formResponse.status()).toBe(201);
  expect(formResponse.request().postDataJSON()).toMatchObject({ formId: "return", fields: [{ id: "order", value: "A-1001" }, { id: "reason", value: "Too small" }] });
  await expect(page.getByText("Thank you, your answers were sent.")).toBeVisible();

  await ask(page, "Can I book a demo?");
  const booking = page.getByRole("form", { name: "Book: Product demo" });
  await expect(booking).toContainText("Product demo (30 min)");
  await expectAccessible(page);
  const slot = booking.getByRole("group", { name: "Time" }).getByRole("button").first();
  await slot.click();
  await expect(slot).toHaveAttribute("aria-pressed", "true");
  await booking.getByLabel("Email (optional)").fill("jane@example.com");
  const booked = page.waitForResponse((r) => r.url().endsWith("/booking"));
  await booking.getByRole("button", { name: "Book" }).click();
  const bookingResponse = await booked;
  expect(bookingResponse.status()).toBe(201);
  const sent = bookingResponse.request().postDataJSON();
  expect(sent.startAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/);
  expect(sent.email).toBe("jane@example.com");
  await expect(page.getByText(/^Booked: Product demo, /)).toBeVisible();
});

test("an error answer is shown in an alert", async ({ page }) => {
  await openWidget(page);
  for (let i = 1; i <= 4; i++) {
    await ask(page, `Is the Blue Jacket waterproof? (${i})`);
    await expect(page.getByRole("log").locator(".msg.user")).toHaveCount(i);
    await expect(page.getByRole("button", { name: "Send", exact: true })).toBeEnabled();
  }
  const refused = page.waitForResponse((r) => r.url().endsWith("/messages") && r.request().method() === "POST");
  await ask(page, "One more question");
  const response = await refused;
  expect(response.status()).toBe(429);
  expect((await response.json()).error.code).toBe("visitor_message_limit_reached");
  await expect(page.getByRole("alert")).toHaveText("You have reached the message limit for now. Please try again later.");
  // The box stays usable.
  await expect(page.getByRole("textbox", { name: "Message" })).toBeEditable();
});

test("live chat: waiting, a team member's replies as they come, the end and a rating", async ({ page }) => {
  await openWidget(page);
  await ask(page, "I would like to talk to a human");
  await expect(lastMessage(page)).toContainText("I can bring a member of our team into this chat. Would you like that?");
  const events = page.waitForRequest((r) => r.url().includes("/events?visitorId="));
  await lastMessage(page).getByRole("button", { name: "Yes, please" }).click();
  await expect(page.getByRole("log").getByText("Waiting for a team member…")).toBeVisible();
  await events;
  const conversationId = await page.evaluate((k) => localStorage.getItem(k), `parley:${parley.agentId}:conversation`);
  expect(conversationId).toMatch(/^cnv_/);

  await consoleApi("POST", `/console/v1/conversations/${conversationId}/takeover`);
  await expect(page.getByRole("log").getByText("A team member has joined the chat.")).toBeVisible();
  await consoleApi("POST", `/console/v1/conversations/${conversationId}/reply`, { message: "Hi, this is Olivia. How can I help?" });
  const team = page.getByRole("log").locator(".msg.team");
  await expect(team).toHaveCount(1);
  await expect(team).toContainText("Olivia (team)");
  await expect(team).toContainText("Hi, this is Olivia. How can I help?");

  // While the team has the chat the agent does not answer; the team reads the message.
  const assistantBefore = await page.getByRole("log").locator(".msg.assistant").count();
  await ask(page, "Where is my order A-1001?");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeEnabled();
  await expect(page.getByRole("log").locator(".msg.assistant")).toHaveCount(assistantBefore);
  const seen = await consoleApi("GET", `/console/v1/conversations/${conversationId}`);
  expect(seen.data.messages.map((m: { content: string }) => m.content)).toContain("Where is my order A-1001?");

  await consoleApi("POST", `/console/v1/conversations/${conversationId}/reply`, { message: "It ships tomorrow." });
  await expect(team).toHaveCount(2);
  await expect(team.last()).toContainText("It ships tomorrow.");

  await consoleApi("POST", `/console/v1/conversations/${conversationId}/end`);
  await expect(page.getByRole("log").getByText("The live chat has ended.")).toBeVisible();
  const rating = page.getByRole("group", { name: "Rate this chat" });
  const rated = page.waitForResponse((r) => r.url().endsWith("/csat"));
  await rating.getByRole("button", { name: "5 out of 5" }).click();
  expect((await rated).status()).toBe(200);
  await expect(page.getByText("Thank you for your feedback.")).toBeVisible();
  const after = await consoleApi("GET", `/console/v1/conversations/${conversationId}`);
  expect(after.data.csat.score).toBe(5);
  expect(after.data.liveChat.status).toBe("ended");
});
