#!/usr/bin/env bash
# Builds the dashboard and the widget (WEB, default web/) into OUT (default web/dist): installs the packages
# pinned by web/package-lock.json when they changed (npm ci; Playwright's own browser download is
# off, the tests use Debian's Chromium), then bundles with esbuild (web/build.mjs).
set -euo pipefail
out="$(realpath -m "${1:-$(dirname "$0")/../web/dist}")"
cd "${2:-$(dirname "$0")/../web}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi
node build.mjs "$out"
