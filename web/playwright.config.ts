// Browser tests of the dashboard and the widget, in Debian's Chromium (/usr/bin/chromium,
// installed by scripts/install-deps.sh; Playwright downloads nothing). Each test file starts its
// own server (tests/server.ts) on a fresh SQLite database. Screenshots go to build/screenshots/.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "tests",
  testMatch: "*.spec.ts",
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "../build/playwright-results",
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium",
      // Test sites on made-up host names, all served on this machine.
      args: ["--host-resolver-rules=MAP *.test 127.0.0.1", "--no-sandbox"],
    },
    trace: "off",
  },
});
