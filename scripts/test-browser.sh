#!/usr/bin/env bash
# Runs the browser tests of the dashboard and the widget (web/tests/*.spec.ts, Playwright Test) in
# Debian's Chromium against build/parley, which serves its embedded copy of them. Installs the
# pinned npm packages first when they changed; Playwright downloads no browser. Screenshots of each
# main page are written to build/screenshots/. Extra arguments go to `playwright test`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  echo "test-browser: /usr/bin/chromium is missing; run scripts/install-deps.sh" >&2
  exit 1
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
cd web
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi
npx tsc --noEmit
mkdir -p ../build/screenshots
unset PARLEY_WEB_DIR
PARLEY_BINARY="$(realpath ../build/parley)" npx playwright test "$@"
