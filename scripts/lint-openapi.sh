#!/usr/bin/env bash
# Lints docs/openapi.yaml with Redocly CLI (its `recommended` rules, tools/openapi/redocly.yaml) and
# Spectral (`spectral:oas`, tools/openapi/.spectral.yaml), at the versions pinned in
# tools/openapi/package-lock.json. Prints each tool's findings when it has any, then one summary
# line; exits non-zero when either tool reports an error.
set -euo pipefail
cd "$(dirname "$0")/../tools/openapi"
# No usage reports or update checks from the tools.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true SCARF_ANALYTICS=false
# Redocly CLI 2 runs on Node.js 20.19 or later (Debian 12's own nodejs is older).
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "lint-openapi: needs Node.js 20.19 or later; this is $(node --version)" >&2
  exit 1
fi
# The pinned linters, installed when the lockfile changed (npm ci never rewrites it).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi

doc=../../docs/openapi.yaml
out=$(mktemp -d /tmp/parley-lint-openapi-XXXXXX)
trap 'rm -rf "$out"' EXIT

# Each tool's findings as JSON, counted by severity: "<errors> <warnings>", or "? ?" when the
# tool printed no report (it failed before linting).
redocly_rc=0
npx redocly lint "$doc" --format=json >"$out/redocly.json" 2>"$out/redocly.err" || redocly_rc=$?
spectral_rc=0
npx spectral lint "$doc" --ruleset .spectral.yaml --fail-severity error --format json --quiet \
  >"$out/spectral.json" 2>"$out/spectral.err" || spectral_rc=$?

read -r redocly_errors redocly_warnings < <(node -e '
  try {
    const t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).totals;
    console.log(t.errors, t.warnings);
  } catch { console.log("? ?"); }' "$out/redocly.json")
read -r spectral_errors spectral_warnings < <(node -e '
  try {
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(r.filter((x) => x.severity === 0).length, r.filter((x) => x.severity === 1).length);
  } catch { console.log("? ?"); }' "$out/spectral.json")

# The findings in each tool's own readable form, only when there are some.
if [ "$redocly_errors" != 0 ] || [ "$redocly_warnings" != 0 ]; then
  [ "$redocly_errors" = "?" ] && cat "$out/redocly.err" >&2
  npx redocly lint "$doc" --format=stylish 2>/dev/null || true
fi
if [ "$spectral_errors" != 0 ] || [ "$spectral_warnings" != 0 ]; then
  [ "$spectral_errors" = "?" ] && cat "$out/spectral.err" >&2
  npx spectral lint "$doc" --ruleset .spectral.yaml --format stylish 2>/dev/null || true
fi

# The server embeds the document as read by PyYAML (scripts/gen-openapi.py, YAML 1.1 with 1.2's
# booleans); it must read the same under the YAML 1.2 parser client generators use.
python3 ../../scripts/gen-openapi.py --yaml "$doc" --json "$out/embedded.json"
same=$(node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { parse } from "yaml";
  const a = parse(readFileSync(process.argv[1], "utf8"), { maxAliasCount: -1 });
  const b = JSON.parse(readFileSync(process.argv[2], "utf8"));
  console.log(JSON.stringify(a) === JSON.stringify(b) ? "yes" : "no");' "$doc" "$out/embedded.json")
if [ "$same" != yes ]; then
  echo "lint-openapi: docs/openapi.yaml reads differently under PyYAML (the embedded copy) and YAML 1.2; quote the scalar that differs" >&2
  exit 1
fi

echo "lint-openapi: redocly $redocly_errors errors, $redocly_warnings warnings; spectral $spectral_errors errors, $spectral_warnings warnings"
if [ "$redocly_rc" != 0 ] || [ "$spectral_rc" != 0 ] || [ "$redocly_errors" != 0 ] || [ "$spectral_errors" != 0 ]; then
  exit 1
fi
