#!/usr/bin/env bash
# The dashboard's first load (bytes, time to a usable sign-in form), widget.js gzipped, and the
# time from the widget's Send to the first streamed characters, in Debian's Chromium
# (web/bench/web-bench.mjs). Writes bench/results/web.md and web.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
(cd web && { [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; } \
  || npm ci --no-audit --no-fund --silent)
node web/bench/web-bench.mjs "$PWD/bench/results/web" "${WEB_BENCH_RUNS:-15}"
