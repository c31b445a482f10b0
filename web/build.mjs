// Builds the dashboard (served at /) and the widget (served at /widget.js) into OUT_DIR
// (default dist/): index.html, assets/dashboard.js, assets/dashboard.css, widget.js. Minified,
// one file per entry, nothing loaded from elsewhere at run time. The server embeds OUT_DIR at
// build time (scripts/gen-web-assets.py).
import { build } from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "dist");
await rm(out, { recursive: true, force: true });
await mkdir(join(out, "assets"), { recursive: true });

const common = {
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  logLevel: "warning",
};
await Promise.all([
  build({ ...common, entryPoints: { dashboard: join(here, "src/dashboard/main.tsx") }, outdir: join(out, "assets") }),
  build({ ...common, entryPoints: { widget: join(here, "src/widget/main.tsx") }, outdir: out }),
]);
await copyFile(join(here, "src/dashboard/index.html"), join(out, "index.html"));
