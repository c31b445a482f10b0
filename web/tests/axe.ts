// The accessibility check every page of the dashboard passes: axe-core (WCAG 2 A and AA) finds
// nothing serious or critical. Then a full-page screenshot in build/screenshots/<name>.png.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";

const shots = fileURLToPath(new URL("../../build/screenshots/", import.meta.url));

export async function checkPage(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: `${shots}${name}.png`, fullPage: true });
}
