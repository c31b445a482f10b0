#!/usr/bin/env bash
# Starts the server on SQLite in ./data (or $PARLEY_DATA_DIR). On first start it creates a demo
# account, agent and key and prints the key once with a ready curl line.
#
# A language model behind the demo agent, in one step (README "Connecting a model"):
#   LLM_BASE_URL          an OpenAI-compatible provider, e.g. https://api.openai.com/v1 or
#                         http://127.0.0.1:11434/v1 (Ollama)
#   LLM_MODEL             its chat model (required with LLM_BASE_URL)
#   LLM_API_KEY           its key, if it wants one (passed in the environment only)
#   LLM_EMBEDDING_MODEL   optional: its embedding model, for hybrid retrieval
# When LLM_BASE_URL is set the server gets that provider as its default and the demo agent (new or
# existing) is put on the `openai` engine with the models; when no provider is configured at all,
# a demo agent left on the `openai` engine without a provider of its own goes back to the
# built-in engine.
set -euo pipefail
cd "$(dirname "$0")/.."
listen="${1:-127.0.0.1:8080}"
export PARLEY_DATA_DIR="${PARLEY_DATA_DIR:-./data}"
demo=(--base-url "http://${listen}")
if [ -n "${LLM_BASE_URL:-}" ]; then
  if [ -z "${LLM_MODEL:-}" ]; then
    echo "LLM_BASE_URL is set: set LLM_MODEL too (the provider's chat model)." >&2
    exit 2
  fi
  export PARLEY_LLM_BASE_URL="$LLM_BASE_URL" PARLEY_LLM_MODEL="$LLM_MODEL"
  if [ -n "${LLM_API_KEY:-}" ]; then export PARLEY_LLM_API_KEY="$LLM_API_KEY"; fi
  demo+=(--llm-model "$LLM_MODEL")
  if [ -n "${LLM_EMBEDDING_MODEL:-}" ]; then demo+=(--llm-embedding-model "$LLM_EMBEDDING_MODEL"); fi
elif [ -z "${PARLEY_LLM_BASE_URL:-}" ]; then
  demo+=(--no-llm)
fi
made="$(build/parley admin demo "${demo[@]}")"
if [ -n "${LLM_BASE_URL:-}" ]; then
  # One small call, so that a wrong key, model or address shows now, not at the first question.
  agent="$(python3 -c 'import json,sys; print((json.load(sys.stdin).get("agent") or {}).get("id", ""))' \
    <<<"$made")"
  if [ -n "$agent" ]; then
    build/parley admin agent test-llm "$agent" |
      python3 -c 'import json,sys; print("Language model: " + json.load(sys.stdin)["message"], file=sys.stderr)' || true
  fi
fi
exec build/parley serve --listen "$listen"
