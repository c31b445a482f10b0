#!/usr/bin/env bash
# Installs every Debian 12 package Parley needs to build, test and benchmark (Chromium runs the
# dashboard's and widget's browser tests; the npm packages are pinned by the lockfiles and
# installed by the scripts that use them).
# Idempotent: packages already present are skipped and apt-get update runs at most once.
# With --sanitize, also clang and its sanitizer runtime, which only the sanitizer build and the
# fuzzers use (make test-sanitize, make fuzz), so that `make test` on a new machine skips them.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libboost-dev libssl-dev libsqlite3-dev sqlite3 libpq-dev
  rapidjson-dev libcli11-dev libtomlplusplus-dev libspdlog-dev libfmt-dev
  libicu-dev libstemmer-dev wordnet-base libcurl4-openssl-dev libargon2-dev
  libgumbo-dev libpoppler-cpp-dev libzip-dev libpugixml-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  curl python3 python3-yaml wrk nginx-light libnginx-mod-http-echo postgresql openssl
  chromium fonts-dejavu-core
  prometheus  # promtool: the metrics test checks /metrics with `promtool check metrics`
)

if [ "${1:-}" = "--sanitize" ]; then
  packages+=(clang-14 libclang-rt-14-dev lld-14 llvm-14)
fi

# The machine image may ship its own Node.js and npm; Debian's are only a fallback.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
