#!/usr/bin/env bash
# Runs every test: unit tests and end-to-end tests against the real server binary.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure
