#!/usr/bin/env bash
# Starts the server on SQLite in ./data (or $PARLEY_DATA_DIR). On first start it creates a demo
# account, agent and key and prints the key once with a ready curl line.
set -euo pipefail
cd "$(dirname "$0")/.."
listen="${1:-127.0.0.1:8080}"
export PARLEY_DATA_DIR="${PARLEY_DATA_DIR:-./data}"
build/parley admin demo --base-url "http://${listen}" >/dev/null
exec build/parley serve --listen "$listen"
