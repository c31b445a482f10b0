#!/usr/bin/env bash
# Eval scenario: answer quality of an agent on the evaluation corpus (bench/eval.py, over HTTP
# against the server). Writes bench/results/eval.md and eval.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 bench/eval.py --binary "${PARLEY_BINARY:-$PWD/build/parley}"
