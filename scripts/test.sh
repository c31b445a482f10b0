#!/usr/bin/env bash
# Runs every test: unit tests and end-to-end tests against the real server binary.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Standard Webhooks reference library checks deliveries captured by the end-to-end tests.
if command -v npm >/dev/null 2>&1; then (cd tests/node && npm install --no-audit --no-fund --silent); fi
ctest --test-dir build --output-on-failure -j "$(nproc)"
