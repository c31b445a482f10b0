// The agent settings' "Test connection": one small call to the language model the form names,
// saved or not, against a loopback stand-in of an OpenAI-compatible provider; the outcome shown
// in words (answered in N ms, wrong key, unknown model). Owners and admins see the button.
import { expect, test } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { checkPage } from "./axe";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
let provider: Server;
const calls: { auth: string; model: string }[] = [];

test.beforeAll(async () => {
  // Good key "sk-good", model "unknown" unknown; anything else answers like a provider would.
  provider = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const model = JSON.parse(body || "{}").model ?? "";
      calls.push({ auth: req.headers.authorization ?? "", model });
      res.setHeader("Content-Type", "application/json");
      if (req.headers.authorization !== "Bearer sk-good") {
        res.writeHead(401).end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
      } else if (model === "unknown") {
        res.writeHead(404).end(JSON.stringify({ error: { message: `model "${model}" not found` } }));
      } else {
        res.writeHead(200).end(JSON.stringify({ id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }] }));
      }
    });
  });
  await new Promise<void>((ok) => provider.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  parley = await startParley({
    agentSettings: { engine: "openai", llm: { baseUrl: base, model: "small-model", apiKey: "sk-good" } },
    serveArgs: ["--webhook-allow-private-targets"],
  });
});
test.afterAll(async () => {
  await parley?.stop();
  provider?.close();
});

test("Test connection reports an answer, a wrong key and an unknown model", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/settings`);
  const button = page.getByRole("button", { name: "Test connection" });
  const result = page.locator("#llm-test-result");

  await button.click();
  await expect(result).toContainText(/The model answered in \d+ ms/);
  await expect(result).toHaveClass(/ok/);
  expect(calls.at(-1)).toEqual({ auth: "Bearer sk-good", model: "small-model" });

  // Unsaved values are what is tested.
  await page.getByLabel("Provider API key").fill("sk-wrong");
  await button.click();
  await expect(result).toContainText("The provider refused the API key (HTTP 401).");
  await expect(result).toHaveClass(/error-text/);
  await expect(result).not.toContainText("Incorrect"); // the provider's own words are not shown

  await page.getByLabel("Provider API key").fill("sk-good");
  await page.getByLabel("Model", { exact: true }).fill("unknown");
  await button.click();
  await expect(result).toContainText("The provider does not know this model (HTTP 404).");
  await checkPage(page, "agent-settings-llm-test");

  // Nothing was saved by testing.
  const stored = parley.admin("agent", "get", parley.agentId);
  expect(stored.settings.llm.model).toBe("small-model");
});

test("an editor sees no Test connection button", async ({ page }) => {
  parley.admin("member", "create", "--account", parley.accountId, "--email", "ed@acme.test", "--role", "editor", "--name", "Ed", "--password", "correct horse battery");
  await signIn(page, { ...parley, email: "ed@acme.test" }, `/agents/${parley.agentId}/settings`);
  await expect(page.getByRole("heading", { level: 2, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Test connection" })).toHaveCount(0);
});
