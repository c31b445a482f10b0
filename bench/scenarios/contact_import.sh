#!/usr/bin/env bash
# Contact import: a CSV of ROWS contacts (external_id, email, phone, name and two attributes)
# POSTed to /console/v1/agents/{id}/contacts/import as multipart/form-data, timed from the
# request to the report: once into an empty agent (every row created), once again (every row
# unchanged), and once with every tenth row changed. On SQLite and on PostgreSQL (a throwaway
# cluster, scripts/pg-cluster.sh, at its durable defaults). Target: 100,000 rows in under 30 s.
# Writes bench/results/contact_import.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
ROWS="${CONTACT_IMPORT_ROWS:-100000}"
out_md=bench/results/contact_import.md

work=$(mktemp -d "$BENCH_TMP/contact-import-XXXXXX")
cluster=$(mktemp -d /tmp/parley-bench-pg-XXXXXX)
PARLEY_PID=""
cleanup() {
  [ -n "$PARLEY_PID" ] && stop_pid "$PARLEY_PID"
  scripts/pg-cluster.sh stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 - "$ROWS" "$work" <<'PY'
import sys
rows, work = int(sys.argv[1]), sys.argv[2]
def write(path, changed_every=0):
    with open(path, "w") as f:
        f.write("External ID,Email,Phone,Name,Plan,City\n")
        for i in range(rows):
            name = f"Person {i}" + (" (new)" if changed_every and i % changed_every == 0 else "")
            f.write(f"u{i},person{i}@example.com,+4915{i:09d},{name},{'pro' if i % 3 else 'free'},City {i % 97}\n")
write(f"{work}/contacts.csv")
write(f"{work}/changed.csv", 10)
PY
bytes=$(stat -c %s "$work/contacts.csv")

# import FILE PORT AGENT TOKEN -> prints "seconds created updated unchanged refused"
import() {
  local start end report
  start=$(date +%s.%N)
  report=$(curl -sf -H "Authorization: Bearer $4" -F "file=@$1;type=text/csv" \
    "http://127.0.0.1:$2/console/v1/agents/$3/contacts/import")
  end=$(date +%s.%N)
  echo "$(python3 -c "print(f'{$end - $start:.2f}')") $(echo "$report" | jq -r '.data | "\(.created) \(.updated) \(.unchanged) \(.refused)"')"
}

# run NAME [database-url]: one server, three imports; appends a table row per import.
results=()
run() {
  local name=$1 url=${2:-} dir="$work/$1" port
  mkdir -p "$dir"
  if [ -n "$url" ]; then export PARLEY_DATABASE_URL="$url"; else unset PARLEY_DATABASE_URL; fi
  export PARLEY_DATA_DIR="$dir"
  local account agent token
  account=$("$PARLEY" admin account create --name Bench --plan enterprise | jq -r .id)
  agent=$("$PARLEY" admin agent create --account "$account" --name Bench | jq -r .id)
  token=$("$PARLEY" admin member create --account "$account" --email "bench@example.com" --role editor | jq -r .token)
  port=$(free_port)
  start_parley "$dir" "$port" ""
  results+=("| $name | first import (all created) | $(import "$work/contacts.csv" "$port" "$agent" "$token") |")
  results+=("| $name | same file again (all unchanged) | $(import "$work/contacts.csv" "$port" "$agent" "$token") |")
  results+=("| $name | every tenth row changed | $(import "$work/changed.csv" "$port" "$agent" "$token") |")
  stop_pid "$PARLEY_PID"
  PARLEY_PID=""
}

run sqlite
cluster_url=$(scripts/pg-cluster.sh start "$cluster")
psql -qAtX "$cluster_url" -c "CREATE DATABASE bench" >/dev/null
run postgresql "${cluster_url%/postgres}/bench"

{
  echo "# Contact import"
  echo
  echo "A CSV of $ROWS contacts ($((bytes / 1024)) KiB: external ID, email, phone, name and two"
  echo "attributes) imported through \`POST /console/v1/agents/{id}/contacts/import\`, timed from the"
  echo "request to the report (curl on the same machine), by \`bench/scenarios/contact_import.sh\`."
  echo "Rows are written 500 to a transaction (docs/decisions/uploads.md). Target: 100,000 rows in"
  echo "under 30 s."
  echo
  echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), shared with other"
  echo "work while measured; $(date -u +%Y-%m-%d)."
  echo
  echo "| database | import | seconds | created | updated | unchanged | refused |"
  echo "|---|---|---|---|---|---|---|"
  for r in "${results[@]}"; do echo "$r" | sed -E 's/\| ([0-9.]+) ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+) \|$/| \1 | \2 | \3 | \4 | \5 |/'; done
} > "$out_md"
cat "$out_md"
