#!/usr/bin/env bash
# Drives the built server with the client libraries teams already use (tests/clients: the openai
# package, the Vercel AI SDK, the MCP SDK), each test file against its own server on SQLite.
# Installs the pinned npm packages first when the lockfile changed (npm ci never rewrites it).
# Extra arguments go to `node --test` (e.g. a single file).
set -euo pipefail
# The typed client first: test/sdk.test.mjs drives the server through it (a failed type check of
# the client against docs/openapi.yaml stops here).
bash "$(dirname "$0")/build-sdk.sh"
cd "$(dirname "$0")/../tests/clients"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi
export PARLEY_BINARY="${PARLEY_BINARY:-$(realpath ../../build/parley)}"
if [ $# -gt 0 ]; then
  exec node --test --test-concurrency=2 "$@"
fi
exec node --test --test-concurrency=2 test/
