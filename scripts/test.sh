#!/usr/bin/env bash
# Runs every test: unit tests and end-to-end tests against the real server binary on SQLite, then
# the end-to-end tests again on PostgreSQL, in a throwaway cluster started here and removed after.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Standard Webhooks reference library checks deliveries captured by the end-to-end tests.
# npm ci installs exactly the committed lockfile and never rewrites it, so a test run leaves the
# work tree as it found it.
if command -v npm >/dev/null 2>&1; then
  if [ ! -f tests/node/node_modules/.package-lock.json ] ||
     [ tests/node/package-lock.json -nt tests/node/node_modules/.package-lock.json ]; then
    (cd tests/node && npm ci --no-audit --no-fund --silent)
  fi
fi
if command -v npm >/dev/null 2>&1; then scripts/lint-openapi.sh; fi
# Every response the end-to-end tests receive is kept here and checked against docs/openapi.yaml
# at the end (tests/node/validate-responses.mjs).
responses=$(mktemp -d /tmp/parley-test-responses-XXXXXX)
trap 'rm -rf "$responses"' EXIT
export PARLEY_TEST_RESPONSE_LOG=$responses/sqlite
mkdir -p "$PARLEY_TEST_RESPONSE_LOG" "$responses/postgresql"
ctest --test-dir build --output-on-failure -j "$(nproc)"

cluster=$(mktemp -d /tmp/parley-test-pg-XXXXXX)
trap 'scripts/pg-cluster.sh stop "$cluster"; rm -rf "$responses"' EXIT
# Durability is not under test here: fsync off spares the disk.
url=$(scripts/pg-cluster.sh start "$cluster" fsync=off synchronous_commit=off full_page_writes=off)
echo "test: the end-to-end suite on PostgreSQL ($url)"
PARLEY_TEST_RESPONSE_LOG=$responses/postgresql PARLEY_TEST_POSTGRES_URL=$url \
  ctest --test-dir build --output-on-failure -j "$(nproc)" -L e2e
# The store contract on PostgreSQL (tests/unit/store/contract: each test in a database of its own).
PARLEY_TEST_POSTGRES_URL=$url ctest --test-dir build --output-on-failure -j "$(nproc)" \
  -R '^unit\..*StoreContract\..*/Postgres'
if command -v node >/dev/null 2>&1; then
  (cd tests/node && node validate-responses.mjs ../../docs/openapi.yaml "$responses/sqlite" "$responses/postgresql")
fi
# The OpenAI-compatible endpoint and the MCP server through the official client packages.
scripts/test-clients.sh
# The dashboard and the widget in Debian's Chromium, against the built binary and its embedded
# copy of them (web/tests; screenshots in build/screenshots/).
scripts/test-browser.sh
