#!/usr/bin/env bash
# Runs every test: unit, integration and end-to-end tests on SQLite and, side by side with them,
# the end-to-end tests again on PostgreSQL (a throwaway cluster started here and removed after);
# then the OpenAPI checks, the client-library tests and the browser tests. Each step's wall time is
# printed at the end (bench/results/test_time.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests at a time in each of the two side-by-side runs (PARLEY_TEST_JOBS; default twice the core
# count: an end-to-end test mostly waits for its server, so four per core still leave CPU spare).
jobs=${PARLEY_TEST_JOBS:-$(($(nproc) * 2))}
steps=()
step_start=$SECONDS
step() {  # step NAME: records how long the step that just ended took
  steps+=("$(printf '%-38s %4d s' "$1" $((SECONDS - step_start)))")
  step_start=$SECONDS
}

# The Standard Webhooks reference library checks deliveries captured by the end-to-end tests.
# npm ci installs exactly the committed lockfile and never rewrites it, so a test run leaves the
# work tree as it found it.
if command -v npm >/dev/null 2>&1; then
  if [ ! -f tests/node/node_modules/.package-lock.json ] ||
     [ tests/node/package-lock.json -nt tests/node/node_modules/.package-lock.json ]; then
    (cd tests/node && npm ci --no-audit --no-fund --silent)
  fi
  # The end-to-end tests of agents' tools start tests/clients/support/tool_servers.mjs (the MCP
  # SDK); scripts/test-clients.sh finds the packages installed then.
  if [ ! -f tests/clients/node_modules/.package-lock.json ] ||
     [ tests/clients/package-lock.json -nt tests/clients/node_modules/.package-lock.json ]; then
    (cd tests/clients && npm ci --no-audit --no-fund --silent)
  fi
fi
# The OpenAPI linters run while the suites below start (they need neither the build nor a server).
tmp=$(mktemp -d /tmp/parley-test-XXXXXX)
cluster=""
cleanup() {
  if [ -n "$cluster" ]; then scripts/pg-cluster.sh stop "$cluster" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
lint_pid=""
if command -v npm >/dev/null 2>&1; then
  scripts/lint-openapi.sh >"$tmp/lint-openapi.log" 2>&1 &
  lint_pid=$!
fi
step "npm ci (tests/node)"

# Every response the end-to-end tests receive is kept here and checked against docs/openapi.yaml
# at the end (tests/node/validate-responses.mjs).
responses=$tmp/responses
mkdir -p "$responses/sqlite" "$responses/postgresql"
cluster=$(mktemp -d /tmp/parley-test-pg-XXXXXX)
# Durability is not under test here: fsync off spares the disk.
url=$(scripts/pg-cluster.sh start "$cluster" fsync=off synchronous_commit=off full_page_writes=off)
echo "test: the end-to-end suite on PostgreSQL ($url), beside the whole suite on SQLite"
# The PostgreSQL run reads the same test list from a folder of its own, so that the two ctest
# processes keep apart their logs and the test times ctest keeps to order the next run.
# Listing the tests once first writes each binary's test list before the two runs read it.
mkdir -p build/ctest-postgresql
echo "include(\"$PWD/build/CTestTestfile.cmake\")" >build/ctest-postgresql/CTestTestfile.cmake
ctest --test-dir build -N >/dev/null
step "PostgreSQL cluster, test lists"

# The two suites side by side, each test's output prefixed with its database. Two tests labelled
# machine_load (tests/e2e/serial_tests.cmake) must not run at once; ctest keeps them apart within
# one run but not across two, so the PostgreSQL run leaves them for after, one at a time.
run_suite() {  # run_suite NAME ctest-arguments...: ctest with its output prefixed by NAME
  local name=$1
  shift
  ctest --output-on-failure "$@" 2>&1 | sed -u "s/^/[$name] /"
}
PARLEY_TEST_RESPONSE_LOG=$responses/sqlite \
  run_suite sqlite --test-dir build -j "$jobs" &
sqlite_pid=$!
PARLEY_TEST_RESPONSE_LOG=$responses/postgresql PARLEY_TEST_POSTGRES_URL=$url \
  run_suite postgresql --test-dir build/ctest-postgresql -j "$jobs" -L e2e -LE machine_load &
pg_pid=$!
status=0
wait "$sqlite_pid" || status=1
wait "$pg_pid" || status=1
step "ctest: SQLite beside PostgreSQL"
PARLEY_TEST_RESPONSE_LOG=$responses/postgresql PARLEY_TEST_POSTGRES_URL=$url \
  run_suite postgresql --test-dir build/ctest-postgresql -L machine_load || status=1
step "ctest: machine_load on PostgreSQL"
# The store contract on PostgreSQL (tests/unit/store/contract: each test in a database of its own),
# and the round trips a chat turn and a contact upsert take there (tests/unit/domain/*_round_trips).
PARLEY_TEST_POSTGRES_URL=$url \
  run_suite postgresql --test-dir build/ctest-postgresql -j "$jobs" \
  -R '^unit\.(.*StoreContract\..*/Postgres|(Chat|Contact)RoundTripsTest\.)' || status=1
step "ctest: store contract and round trips on PostgreSQL"
if [ "$status" != 0 ]; then
  echo "test: ctest reported failures (above)" >&2
  exit 1
fi
scripts/pg-cluster.sh stop "$cluster"
cluster=""

if [ -n "$lint_pid" ]; then
  lint_status=0
  wait "$lint_pid" || lint_status=$?
  cat "$tmp/lint-openapi.log"
  if [ "$lint_status" != 0 ]; then exit "$lint_status"; fi
fi
if command -v node >/dev/null 2>&1; then
  (cd tests/node && node validate-responses.mjs ../../docs/openapi.yaml "$responses/sqlite" "$responses/postgresql")
fi
step "OpenAPI lint and response check"
# The OpenAI-compatible endpoint and the MCP server through the official client packages.
scripts/test-clients.sh
step "client-library tests"
# The dashboard and the widget in Debian's Chromium, against the built binary and its embedded
# copy of them (web/tests; screenshots in build/screenshots/).
scripts/test-browser.sh
step "browser tests"
echo "test: every step passed; wall time of each:"
printf '  %s\n' "${steps[@]}"
