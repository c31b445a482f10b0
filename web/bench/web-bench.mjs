// Front-end figures, in Debian's Chromium against build/parley on a fresh SQLite database:
//   - the dashboard's first load with an empty cache: bytes transferred (gzipped, headers
//     included), and the time until the sign-in form can be used; then, signed in, until the
//     agents list is shown;
//   - widget.js gzipped, as served;
//   - the time from a click on the widget's Send to the first characters of the streamed reply
//     on the page (the built-in engine, a question its knowledge answers).
// Each figure is the median (and the slowest) of RUNS runs. Writes OUT.md and OUT.json.
//
//   node web-bench.mjs OUT_WITHOUT_EXTENSION [RUNS]
import { chromium } from "@playwright/test";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const out = process.argv[2];
const runs = Number(process.argv[3] ?? 15);
const binary = process.env.PARLEY_BINARY ?? new URL("../../build/parley", import.meta.url).pathname;

const dataDir = mkdtempSync(join(tmpdir(), "parley-web-bench-"));
const env = { ...process.env, PARLEY_DATA_DIR: dataDir, PARLEY_RATE_LIMIT_PER_MINUTE: "1000000" };
const admin = (...args) => JSON.parse(execFileSync(binary, ["admin", ...args], { env, encoding: "utf8" }));
const account = admin("account", "create", "--name", "Bench", "--plan", "enterprise");
const password = "bench password 1";
admin("member", "create", "--account", account.id, "--email", "bench@example.com", "--role", "owner", "--password", password);
const agent = admin("agent", "create", "--account", account.id, "--name", "Bench agent");
const answer = "Our shop opens at 9 in the morning and closes at 6 in the evening.";
admin("source", "add", "--agent", agent.id, "--type", "qa", "--question", "When does the shop open?", "--answer", answer);

const server = spawn(binary, ["serve", "--listen", "127.0.0.1:0", "--widget-messages-per-minute-per-address", "100000",
  "--widget-requests-per-minute-per-address", "100000"], { env, stdio: ["ignore", "ignore", "pipe"] });
const port = await new Promise((ok, fail) => {
  let seen = "";
  server.stderr.on("data", (c) => {
    seen += c;
    const m = /"msg":"listening","address":"[^"]*:(\d+)"/.exec(seen);
    if (m) ok(Number(m[1]));
  });
  server.on("exit", () => fail(new Error(seen)));
});
server.stderr.resume();
const base = `http://127.0.0.1:${port}`;
// Training is asynchronous: wait until the Q&A pair is trained.
for (let i = 0; i < 500; i++) {
  const list = admin("source", "list", "--agent", agent.id);
  if ((list.data ?? list).every((s) => s.status === "trained")) break;
  await new Promise((r) => setTimeout(r, 20));
}

const site = createServer((_q, res) => {
  res.writeHead(200, { "Content-Type": "text/html" });
  res.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<script src="${base}/widget.js" data-agent-id="${agent.id}" async></script></body></html>`);
});
await new Promise((ok) => site.listen(0, "127.0.0.1", ok));
const sitePort = site.address().port;

const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);

const load = { bytes: [], formMs: [], agentsMs: [] };
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes = [];
  page.on("requestfinished", (request) => sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
  const t0 = Date.now();
  await page.goto(base + "/");
  await page.getByLabel("Email").waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Sign in" }).waitFor({ state: "visible" });
  load.formMs.push(Date.now() - t0);
  await page.waitForLoadState("networkidle");
  load.bytes.push((await Promise.all(sizes)).reduce((a, b) => a + b, 0));
  await page.getByLabel("Email").fill("bench@example.com");
  await page.getByLabel("Password").fill(password);
  const t1 = Date.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("Bench agent").first().waitFor({ state: "visible" });
  load.agentsMs.push(Date.now() - t1);
  await context.close();
}

const firstChar = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${sitePort}/`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await page.getByRole("textbox", { name: "Message" }).fill("When does the shop open?");
  const ms = await page.evaluate((needle) => new Promise((resolve) => {
    const host = [...document.querySelectorAll("*")].find((e) => e.shadowRoot);
    const root = host.shadowRoot;
    const send = [...root.querySelectorAll("button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent.trim()) === "Send");
    const seen = () => root.textContent.includes(needle);
    let t0 = 0;
    const watch = new MutationObserver(() => {
      if (seen()) {
        watch.disconnect();
        resolve(performance.now() - t0);
      }
    });
    watch.observe(root, { subtree: true, childList: true, characterData: true });
    t0 = performance.now();
    send.click();
  }), answer.slice(0, 12));
  firstChar.push(ms);
  await context.close();
}

const widget = await fetch(base + "/widget.js", { headers: { "Accept-Encoding": "gzip" } });
const widgetBytes = Buffer.from(await widget.arrayBuffer());
const widgetPlain = await (await fetch(base + "/widget.js", { headers: { "Accept-Encoding": "identity" } })).arrayBuffer();
// fetch() decodes gzip itself: the served gzip size is the length gzip gives the plain bytes at level 9.
const widgetGzip = gzipSync(Buffer.from(widgetPlain), { level: 9 }).length;

await browser.close();
server.kill("SIGTERM");
site.close();
rmSync(dataDir, { recursive: true, force: true });

const result = {
  runs,
  chromium: browser.version(),
  dashboardFirstLoadBytes: { median: median(load.bytes), max: max(load.bytes) },
  dashboardSignInFormMs: { median: median(load.formMs), max: max(load.formMs) },
  dashboardSignedInAgentsMs: { median: median(load.agentsMs), max: max(load.agentsMs) },
  widgetScriptBytes: { plain: widgetPlain.byteLength, gzip: widgetGzip },
  widgetSendToFirstCharMs: { median: Math.round(median(firstChar) * 10) / 10, max: Math.round(max(firstChar) * 10) / 10 },
};
void widgetBytes;
writeFileSync(out + ".json", JSON.stringify(result, null, 2) + "\n");
writeFileSync(out + ".md", `# Dashboard and widget (web)

Debian's Chromium ${result.chromium}, headless, on this machine, against build/parley on SQLite;
each figure the median (and slowest) of ${runs} runs with an empty cache. \`make bench\` writes
this file (bench/scenarios/web.sh, web/bench/web-bench.mjs).

| what | median | slowest | target |
|---|---|---|---|
| dashboard first load, bytes transferred (gzipped, headers included) | ${result.dashboardFirstLoadBytes.median} | ${result.dashboardFirstLoadBytes.max} | — |
| dashboard first load until the sign-in form can be used | ${result.dashboardSignInFormMs.median} ms | ${result.dashboardSignInFormMs.max} ms | — |
| sign in until the agents list is shown | ${result.dashboardSignedInAgentsMs.median} ms | ${result.dashboardSignedInAgentsMs.max} ms | — |
| widget.js gzipped (plain) | ${result.widgetScriptBytes.gzip} B (${result.widgetScriptBytes.plain} B) | | < 30 KB gzipped |
| widget: Send to the first streamed characters on the page | ${result.widgetSendToFirstCharMs.median} ms | ${result.widgetSendToFirstCharMs.max} ms | — |
`);
console.log(JSON.stringify(result));
