// The website widget on a shop's page: a streamed answer from the agent's knowledge, the refusal on
// a site that is not allowed, the conversation kept across a reload, and CSS isolation in both
// directions. Screenshots of the closed and open widget go to build/screenshots/.
import { test, expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startParley, site, type Parley } from "./server";

const shipping =
  "Our shop ships to all European countries. Standard shipping takes three to five business days and costs 4.90 euros. " +
  "Orders above 50 euros ship for free. Returns are accepted within 30 days of delivery.";

let parley: Parley;
let shop: Awaited<ReturnType<typeof site>>;
let hostile: Awaited<ReturnType<typeof site>>;
let hostileNoWidget: Awaited<ReturnType<typeof site>>;

function page(opts: { css?: string; widget?: boolean } = {}): string {
  const script = opts.widget === false ? "" : `<script src="${parley.url}/widget.js" data-agent-id="${parley.agentId}" async></script>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Shop</title>
<style>
body { margin: 0; font-family: Georgia, serif; background: #faf7f2; color: #2b2118; }
header { background: #2b2118; color: #faf7f2; padding: 18px 40px; font-size: 22px; }
main { padding: 32px 40px; max-width: 720px; }
${opts.css ?? ""}
</style></head>
<body>
<header>Acme Shop</header>
<main>
  <h1>Winter jackets</h1>
  <p id="text">Warm, waterproof and made to last. Free shipping on orders above 50 euros.</p>
  <button id="buy">Add to cart</button>
  <textarea id="notes" aria-label="Notes"></textarea>
</main>
${script}
</body></html>`;
}

// The page's own rules, aimed at everything the widget is made of.
const hostileCss = `
html { font-size: 40px; }
* { font-family: "Courier New", monospace !important; color: green !important; letter-spacing: 3px !important; box-sizing: content-box !important; }
button { background: red !important; font-size: 40px; padding: 30px !important; border: 5px solid black !important; width: 300px; }
div { border: 2px dashed blue !important; margin: 10px !important; }
p, h2, span { font-size: 30px !important; }
textarea { background: yellow !important; height: 200px; }
body > * { opacity: 0.5 !important; }
parley-chat, [data-agent-id] { display: none !important; }
`;

async function waitTrained(p: Parley) {
  for (let i = 0; i < 100; i++) {
    const list = p.admin("source", "list", "--agent", p.agentId);
    if (list.data.every((s: { status: string }) => s.status === "trained")) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error("training did not finish");
}

test.beforeAll(async () => {
  parley = await startParley({ agentSettings: { allowedDomains: ["shop.test"] } });
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "text", "--title", "Shipping", "--content", shipping);
  parley.admin("source", "add", "--agent", parley.agentId, "--type", "qa", "--question", "What are your opening hours?",
    "--answer", "We are open Monday to Friday from 9 am to 6 pm.");
  shop = await site(page());
  hostile = await site(page({ css: hostileCss }));
  hostileNoWidget = await site(page({ css: hostileCss, widget: false }));
  await waitTrained(parley);
});

test.afterAll(async () => {
  await Promise.all([shop?.close(), hostile?.close(), hostileNoWidget?.close()]);
  await parley?.stop();
});

const lastReply = (p: Page) => p.getByRole("log", { name: "Messages" }).locator(".msg.assistant .bubble").last();

async function ask(p: Page, text: string) {
  const box = p.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

test("answers from its knowledge with streamed text; screenshots closed and open", async ({ page }) => {
  await page.goto(`http://shop.test:${shop.port}/`);
  const launcher = page.getByRole("button", { name: "Open chat" });
  await expect(launcher).toBeVisible();
  // The agent's configuration has loaded (the panel's heading names the agent).
  await expect(page.getByRole("heading", { name: "Acme Support", includeHidden: true })).toBeAttached();
  mkdirSync("../build/screenshots", { recursive: true });
  await page.screenshot({ path: "../build/screenshots/widget-closed.png" });

  await launcher.click();
  await expect(page.getByRole("button", { name: "Close chat" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("dialog", { name: "Acme Support" })).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();

  // Every state of the newest assistant bubble, recorded at each change of the log.
  await page.evaluate(() => {
    const log = document.querySelector("parley-chat")!.shadowRoot!.querySelector("[role=log]")!;
    const seen: string[] = ((window as any).replyStates = []);
    new MutationObserver(() => {
      const bubbles = log.querySelectorAll(".msg.assistant .bubble p");
      const text = Array.from(bubbles).map((b) => b.textContent).join("\n");
      if (seen[seen.length - 1] !== text) seen.push(text);
    }).observe(log, { subtree: true, childList: true, characterData: true });
  });
  const response = page.waitForResponse((r) => r.url().endsWith(`/widget/v1/agents/${parley.agentId}/messages`));
  await ask(page, "How long does shipping take and are returns accepted?");
  expect((await response).headers()["content-type"]).toContain("text/event-stream");
  await expect(lastReply(page)).toContainText("Returns are accepted within 30 days of delivery.");
  await expect(lastReply(page)).toContainText("Standard shipping takes three to five business days");
  await expect(page.getByRole("log").getByText("How long does shipping take and are returns accepted?")).toBeVisible();
  await expect(box).toHaveValue("");

  // The built-in engine writes its sentences at once, so they may arrive together; each state
  // extends the one before. (A provider's paced stream, below, shows each piece arriving.)
  const states: string[] = (await page.evaluate(() => (window as any).replyStates)).filter((s: string) => s !== "");
  expect(states.length).toBeGreaterThanOrEqual(1);
  for (let i = 1; i < states.length; i++) expect(states[i].startsWith(states[i - 1].trimEnd())).toBe(true);
  expect(states[states.length - 1]).toContain("Returns are accepted within 30 days of delivery.");

  await page.mouse.move(1, 1); // no hover colour on the launcher
  await page.screenshot({ path: "../build/screenshots/widget-open.png" });

  // Escape closes the panel and gives the focus back to the launcher.
  await box.press("Escape");
  await expect(page.getByRole("button", { name: "Open chat" })).toBeFocused();
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("on a site that is not allowed the panel says so and has no message box", async ({ page }) => {
  const refused = page.waitForResponse((r) => r.url().endsWith(`/widget/v1/agents/${parley.agentId}`));
  await page.goto(`http://evil.test:${shop.port}/`);
  expect((await refused).status()).toBe(403);
  await page.getByRole("button", { name: "Open chat" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("This chat is not available on this site.");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toHaveCount(0);
});

test("remembers the conversation across a reload", async ({ page }) => {
  await page.goto(`http://shop.test:${shop.port}/`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await ask(page, "What are your opening hours?");
  await expect(lastReply(page)).toContainText("We are open Monday to Friday from 9 am to 6 pm.");
  // The text streams before the exchange is stored; the log is no longer busy once it is.
  await expect(page.getByRole("log", { name: "Messages" })).toHaveAttribute("aria-busy", "false");
  const key = `parley:${parley.agentId}:`;
  const stored = await page.evaluate((k) => ({ visitor: localStorage.getItem(k + "visitor"), conversation: localStorage.getItem(k + "conversation") }), key);
  expect(stored.visitor).toMatch(/^.{1,100}$/);
  expect(stored.conversation).toMatch(/^cnv_/);

  const transcript = page.waitForResponse((r) => r.url().includes(`/widget/v1/conversations/${stored.conversation}?visitorId=`));
  await page.reload();
  expect((await transcript).status()).toBe(200);
  await page.getByRole("button", { name: "Open chat" }).click();
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByText("What are your opening hours?")).toBeVisible();
  await expect(log.getByText("We are open Monday to Friday from 9 am to 6 pm.")).toBeVisible();

  const sent = page.waitForRequest((r) => r.url().endsWith("/messages") && r.method() === "POST");
  await ask(page, "How long does shipping take?");
  const body = (await sent).postDataJSON();
  expect(body.conversationId).toBe(stored.conversation);
  expect(body.visitorId).toBe(stored.visitor);
  expect(body.page).toBe(`http://shop.test:${shop.port}/`);
  expect(body.stream).toBe(true);
  await expect(lastReply(page)).toContainText("three to five business days");
  await expect(page.getByRole("log", { name: "Messages" })).toHaveAttribute("aria-busy", "false");

  // The server holds both exchanges in the one conversation.
  const conversation = parley.admin("conversation", "get", stored.conversation!);
  const messages = (conversation.data ?? conversation).messages.map((m: { content: string }) => m.content);
  expect(messages).toHaveLength(4);
  expect(messages[0]).toBe("What are your opening hours?");
  expect(messages[2]).toBe("How long does shipping take?");
});

// Computed styles that the page's rules above would change.
const props = ["background-color", "color", "font-family", "font-size", "letter-spacing", "padding-top", "border-top-width",
  "width", "height", "box-sizing", "margin-top", "opacity", "display"];

async function widgetStyles(p: Page) {
  return p.evaluate((names) => {
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    const pick = (el: Element | null) => {
      const s = getComputedStyle(el!);
      return Object.fromEntries(names.map((n) => [n, s.getPropertyValue(n)]));
    };
    return {
      host: pick(document.querySelector("parley-chat")),
      launcher: pick(root.querySelector("button.launcher")),
      panel: pick(root.querySelector("[role=dialog]")),
      heading: pick(root.querySelector("h2")),
      box: pick(root.querySelector("textarea")),
      send: pick(root.querySelector("form.composer button")),
    };
  }, props);
}

async function pageStyles(p: Page) {
  return p.evaluate((names) => {
    const pick = (sel: string) => {
      const s = getComputedStyle(document.querySelector(sel)!);
      return Object.fromEntries(names.map((n) => [n, s.getPropertyValue(n)]));
    };
    return {
      body: pick("body"),
      heading: pick("h1"),
      text: pick("#text"),
      button: pick("#buy"),
      notes: pick("#notes"),
      sheets: document.styleSheets.length,
      styles: document.querySelectorAll("style, link[rel=stylesheet]").length,
    };
  }, props);
}

test("the page's CSS does not reach the widget, and the widget's does not reach the page", async ({ browser }) => {
  const open = async (port: number, withWidget = true) => {
    const p = await browser.newPage();
    await p.goto(`http://shop.test:${port}/`);
    if (withWidget) {
      await p.getByRole("button", { name: "Open chat" }).click();
      await expect(p.getByRole("textbox", { name: "Message" })).toBeVisible();
      await p.mouse.move(1, 1); // no hover colours
    }
    return p;
  };
  const plain = await open(shop.port);
  const attacked = await open(hostile.port);
  const without = await open(hostileNoWidget.port, false);

  // The launcher, panel and controls look the same on the plain page and under the page's rules.
  const reference = await widgetStyles(plain);
  expect(reference.launcher["background-color"]).toBe("rgb(29, 78, 216)");
  expect(reference.launcher["font-size"]).toBe("14px");
  expect(await widgetStyles(attacked)).toEqual(reference);
  await expect(attacked.getByRole("button", { name: "Close chat" })).toBeVisible();

  // The page's elements look the same with and without the widget (open), and the widget added
  // no style sheet to the page.
  const withWidget = await pageStyles(attacked);
  expect(withWidget).toEqual(await pageStyles(without));
  expect(withWidget.button["background-color"]).toBe("rgb(255, 0, 0)");
  await Promise.all([plain.close(), attacked.close(), without.close()]);
});

// A stand-in LLM provider on this machine (the only fake here), a Parley whose agent it answers,
// and a shop page with that agent's widget. `write` sends the reply's pieces; each piece becomes
// one chunk of OpenAI's stream, then the stream ends.
async function providerShop(write: (piece: (content: string) => void) => Promise<void>) {
  const provider = createServer(async (req, res) => {
    for await (const _ of req) void _;
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    await write((content) => res.write(chunk({ content }, null)));
    res.write(chunk({}, "stop"));
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((ok) => provider.listen(0, "127.0.0.1", ok));
  const llm = await startParley({
    agentSettings: { allowedDomains: ["shop.test"], engine: "openai" },
    serveArgs: ["--llm-base-url", `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, "--llm-model", "stand-in"],
  });
  const shopSite = await site(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main>
<script src="${llm.url}/widget.js" data-agent-id="${llm.agentId}" async></script></body></html>`);
  return {
    llm,
    url: `http://shop.test:${shopSite.port}/`,
    async close() {
      await shopSite.close();
      await llm.stop();
      await new Promise((ok) => provider.close(ok));
    },
  };
}

// An agent answered by an LLM provider that sends its reply in three pieces 300 ms apart: the
// widget shows each piece as it arrives.
test("shows a provider's reply piece by piece as it is written", async ({ page }) => {
  const pieces = ["Our jackets are ", "filled with recycled down ", "and fully waterproof."];
  const shopLlm = await providerShop(async (piece) => {
    for (const p of pieces) {
      piece(p);
      await new Promise((ok) => setTimeout(ok, 300));
    }
  });
  try {
    await page.goto(shopLlm.url);
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.evaluate(() => {
      const log = document.querySelector("parley-chat")!.shadowRoot!.querySelector("[role=log]")!;
      const seen: string[] = ((window as any).replyStates = []);
      new MutationObserver(() => {
        const text = Array.from(log.querySelectorAll(".msg.assistant .bubble p")).map((b) => b.textContent).join("\n");
        if (text !== "" && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(log, { subtree: true, childList: true, characterData: true });
    });
    await ask(page, "What are your jackets made of?");
    await expect(lastReply(page)).toContainText(pieces.join(""));
    const states: string[] = await page.evaluate(() => (window as any).replyStates);
    // Each piece was on the page before the next one came.
    expect(states.map((s) => s.trim())).toEqual([pieces[0], pieces[0] + pieces[1], pieces.join("")].map((s) => s.trim()));
  } finally {
    await shopLlm.close();
  }
});

// The visitor goes to another page while the reply is still being written: the exchange is stored
// once the reply is complete, and the next page shows it, although the conversation did not exist
// yet when that page first asked for it.
test("a page left while the reply is written keeps the conversation", async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((ok) => (release = ok));
  const shopLlm = await providerShop(async (piece) => {
    piece("Our jackets are ");
    await held;
    piece("fully waterproof.");
  });
  const { llm } = shopLlm;
  try {
    await page.goto(shopLlm.url);
    await page.getByRole("button", { name: "Open chat" }).click();
    await ask(page, "Are your jackets waterproof?");
    await expect(lastReply(page)).toContainText("Our jackets are");
    const key = `parley:${llm.agentId}:conversation`;
    const conversation = await page.evaluate((k) => localStorage.getItem(k), key);
    expect(conversation).toMatch(/^cnv_/);

    // The next page asks for the transcript before the exchange is stored.
    const early = page.waitForResponse((r) => r.url().includes(`/widget/v1/conversations/${conversation}?visitorId=`));
    await page.goto(shopLlm.url + "?page=2");
    expect((await early).status()).toBe(404);
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBe(conversation);

    release();
    // Not found until the reply is complete and stored.
    const stored = () => {
      try {
        return llm.admin("conversation", "get", conversation!).messages.length;
      } catch {
        return 0;
      }
    };
    await expect.poll(stored).toBe(2);
    await page.getByRole("button", { name: "Open chat" }).click();
    const log = page.getByRole("log", { name: "Messages" });
    await expect(log.getByText("Are your jackets waterproof?")).toBeVisible();
    await expect(log.getByText("Our jackets are fully waterproof.")).toBeVisible();
  } finally {
    release();
    await shopLlm.close();
  }
});
