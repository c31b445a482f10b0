#!/usr/bin/env bash
# Builds the typed TypeScript client (sdk/typescript): installs its pinned packages when the
# lockfile changed, generates its types from docs/openapi.yaml (openapi-typescript), and compiles
# it and its API tour with tsc. The compile fails when the document and the client (or the tour,
# tests/clients/test/sdk.test.mjs runs it) disagree, so the build catches a drifted document.
set -euo pipefail
cd "$(dirname "$0")/../sdk/typescript"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi
npm run --silent generate >/dev/null
# tsc prints what disagrees (file, line, the field the document no longer has) and fails.
npx tsc -p tsconfig.json
npx tsc -p tsconfig.tour.json
