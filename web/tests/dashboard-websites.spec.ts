// Websites in Knowledge: "Add website" crawls a small local site while its progress is shown live,
// its pages become sources listed with their addresses and trained, "Refresh now" reads them again;
// "Cancel" stops a crawl; a crawl that would pass the plan's training characters stops and says
// so; the "Automatic refresh" setting is saved. By accessible names.
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { signIn, siteOf, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  // The test sites are on 127.0.0.1, which the URL guard refuses without this switch.
  parley = await startParley({ serveArgs: ["--webhook-allow-private-targets"] });
});
test.afterAll(async () => {
  await parley?.stop();
});

// A page of the café's site: the menu and footer every page repeats, and its own main content.
const page = (title: string, main: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><nav><a href="/">Home</a> <a href="/menu">Menu</a> <a href="/about/team">Team</a></nav></header>
<main>${main}</main><footer>Harbour Café, Quay 3, Bergen. Cookies keep this site running.</footer></body></html>`;

const CAFE = {
  "/": page("Harbour Café", `<h1>Welcome to Harbour Café</h1><p>Fresh fish by the harbour since 1984.</p>
    <p><a href="/menu">See the menu</a>, meet <a href="/about/team">the team</a>, the <a href="/private/staff">staff area</a>
    or <a href="/old-offers">last summer's offers</a>.</p>`),
  "/menu": page("Menu", `<h1>Menu</h1><ul><li>Fish soup: 12 EUR</li><li>Cloudberry cake: 7 EUR</li></ul>`),
  "/about/team": page("Our team", `<h1>Our team</h1><p>Ingrid has cooked at the harbour for twenty years.</p>`),
  "/private/staff": page("Staff", `<h1>Staff only</h1><p>The safe's code is 4411.</p>`),
  "/robots.txt": { type: "text/plain", body: "User-agent: *\nDisallow: /private/\n" },
};

test("Add website: the crawl's progress reaches done, its pages are sources with their addresses, Refresh now reads them again", async ({ page: tab }) => {
  const cafe = await siteOf(CAFE);
  try {
    await signIn(tab, parley, `/agents/${parley.agentId}/knowledge`);
    await expect(tab.getByText("No sources yet.")).toBeVisible();

    const add = tab.getByRole("button", { name: "Add website" });
    await expect(add).toHaveAttribute("aria-expanded", "false");
    await add.click();
    await expect(add).toHaveAttribute("aria-expanded", "true");
    await expect(tab.getByLabel("Website address")).toBeFocused();
    await checkPage(tab, "agent-knowledge-add-website");

    // The API's refusal names the field, which is marked.
    await tab.getByLabel("Website address").fill("ftp://files.example.com/");
    await tab.getByRole("button", { name: "Start" }).click();
    await expect(tab.getByRole("alert")).toContainText("'url'");
    await expect(tab.getByLabel("Website address")).toHaveAttribute("aria-invalid", "true");

    await tab.getByLabel("Website address").fill(cafe.url);
    await tab.getByLabel("Maximum pages").fill("20");
    await tab.getByRole("button", { name: "Start" }).click();
    await expect(tab.getByLabel("Website address")).toHaveCount(0); // the form closed
    await expect(add).toBeFocused();

    const websites = tab.getByRole("region", { name: "Websites" });
    const crawl = websites.getByRole("row").filter({ hasText: cafe.url });
    await expect(crawl).toHaveCount(1);
    await expect(crawl.getByRole("cell").nth(1)).toHaveText("done", { timeout: 30_000 });
    await expect(crawl.getByText("5 found", { exact: true })).toBeVisible();
    await expect(crawl.getByText("3 fetched", { exact: true })).toBeVisible();
    await expect(crawl.getByText("1 skipped", { exact: true })).toBeVisible(); // /private/ is blocked by robots.txt
    await expect(crawl.getByText("1 failed", { exact: true })).toBeVisible(); // /old-offers answers 404
    await expect(websites.getByRole("status")).toHaveText(`Crawl of ${cafe.url}: done.`);

    // Each page is a website source: its title, its address as a link, trained.
    const sources = tab.getByRole("region", { name: "Sources" });
    const menu = sources.getByRole("row").filter({ hasText: "Menu" }).filter({ has: tab.getByRole("link", { name: `${cafe.url}menu` }) });
    await expect(menu.getByRole("link", { name: `${cafe.url}menu` })).toHaveAttribute("href", `${cafe.url}menu`);
    await expect(menu.getByRole("cell").nth(1)).toHaveText("website");
    await expect(menu.getByRole("cell").nth(3)).toHaveText("trained", { timeout: 15_000 });
    const gone = sources.getByRole("row").filter({ hasText: `${cafe.url}old-offers` });
    await expect(gone.getByRole("cell").nth(3)).toHaveText("failed");
    await expect(gone).toContainText("The server answered 404.");
    await expect(sources.getByRole("row").filter({ hasText: "private" })).toHaveCount(0);
    await expect(tab.getByText(/^Training done: 3 of 4 sources trained, 1 failed\.$/)).toBeVisible({ timeout: 15_000 });
    await checkPage(tab, "agent-knowledge-websites");

    // Refresh now: the site read again; nothing changed, nothing retrained.
    await crawl.getByRole("button", { name: `Refresh now ${cafe.url}` }).click();
    const refresh = websites.getByRole("row").filter({ has: tab.getByText("Refresh", { exact: true }) });
    await expect(refresh).toHaveCount(1);
    await expect(refresh.getByRole("cell").nth(1)).toHaveText("done", { timeout: 30_000 });
    await expect(refresh.getByText("3 unchanged", { exact: true })).toBeVisible();
    await expect(menu.getByRole("cell").nth(3)).toHaveText("trained");
  } finally {
    await cafe.close();
  }
});

test("Cancel stops a running crawl", async ({ page: tab }) => {
  // Every page is held back until the site closes, so the crawl is running when Cancel is pressed.
  const slow = await siteOf({ "/": () => {}, "/robots.txt": { status: 404, type: "text/plain", body: "" } });
  try {
    await signIn(tab, parley, `/agents/${parley.agentId}/knowledge`);
    await tab.getByRole("button", { name: "Add website" }).click();
    await tab.getByLabel("Website address").fill(slow.url);
    await tab.getByRole("button", { name: "Start" }).click();
    const crawl = tab.getByRole("region", { name: "Websites" }).getByRole("row").filter({ hasText: slow.url });
    await expect(crawl.getByRole("cell").nth(1)).toHaveText("running", { timeout: 15_000 });
    await crawl.getByRole("button", { name: `Cancel the crawl of ${slow.url}` }).click();
    await expect(crawl.getByRole("cell").nth(1)).toHaveText("cancelled");
    await expect(crawl.getByRole("button", { name: `Cancel the crawl of ${slow.url}` })).toHaveCount(0);
  } finally {
    await slow.close();
  }
});

test("a crawl that would pass the plan's training characters stops and says so", async ({ page: tab }) => {
  // Another account whose agents may hold 400 training characters: the second page does not fit.
  const account = parley.admin("account", "create", "--name", "Small shop", "--plan", "free");
  parley.admin("account", "set-limits", account.id, JSON.stringify({ trainingCharacters: 400 }));
  const member = { email: "owner@small.test", password: "another horse battery" };
  parley.admin("member", "create", "--account", account.id, "--email", member.email, "--role", "owner", "--password", member.password);
  const agent = parley.admin("agent", "create", "--account", account.id, "--name", "Small shop");
  const words = (n: number, what: string) => Array.from({ length: n }, (_, i) => `${what} ${i + 1} is on the shelf.`).join(" ");
  const shop = await siteOf({
    "/": page("Small shop", `<h1>Small shop</h1><p>${words(6, "Jar")}</p><p><a href="/more">More</a></p>`),
    "/more": page("More", `<h1>More</h1><p>${words(12, "Box")}</p>`),
  });
  try {
    await signIn(tab, { ...parley, ...member }, `/agents/${agent.id}/knowledge`);
    await tab.getByRole("button", { name: "Add website" }).click();
    await tab.getByLabel("Website address").fill(shop.url);
    await tab.getByRole("button", { name: "Start" }).click();
    const crawl = tab.getByRole("region", { name: "Websites" }).getByRole("row").filter({ hasText: shop.url });
    await expect(crawl.getByRole("cell").nth(1)).toHaveText("stopped", { timeout: 30_000 });
    await expect(crawl.locator(".error-text")).toHaveText(
      `The crawl stopped at ${shop.url}more: its text would pass the agent's training characters. The pages read before it were added.`);
    const sources = tab.getByRole("region", { name: "Sources" });
    await expect(sources.getByRole("row").filter({ hasText: "Small shop" })).toHaveCount(1);
    await expect(sources.getByRole("row").filter({ hasText: `${shop.url}more` })).toHaveCount(0);
  } finally {
    await shop.close();
  }
});

test("Automatic refresh is saved as the agent's knowledgeRefresh setting", async ({ page: tab, request }) => {
  await signIn(tab, parley, `/agents/${parley.agentId}/settings`);
  const setting = tab.getByLabel("Automatic refresh");
  await expect(setting).toHaveValue("off");
  await setting.selectOption({ label: "Weekly" });
  await tab.getByRole("button", { name: "Save settings" }).click();
  await expect(tab.getByText("Settings saved.")).toBeVisible();
  const token = await tab.evaluate(() => sessionStorage.getItem("parley:console-token"));
  const agent = await (await request.get(`${parley.url}/console/v1/agents/${parley.agentId}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(agent.data.settings.knowledgeRefresh).toBe("weekly");
  await tab.reload();
  await expect(tab.getByLabel("Automatic refresh")).toHaveValue("weekly");
});
