#!/usr/bin/env bash
# The launcher of every C++ compile (CMAKE_CXX_COMPILER_LAUNCHER in CMakeLists.txt):
#   compile.sh CCACHE COMPILER ARGS...
# Runs the compile through ccache with the settings precompiled headers need (sloppiness
# pch_defines,time_macros; the header files' times are not checked, as a precompiled header is
# always newer than the compile that made it started) and this checkout as ccache's base
# directory, so that another checkout or a new build folder reuses the objects, however the build
# was started (make or cmake --build).
#
# GCC never writes the same precompiled header twice: its bytes differ on every build. ccache
# hashes the .gch a compile uses, so each rebuild of it (a new build folder, another checkout)
# would make every object that uses it a cache miss. So after a precompiled header is made, this
# writes its fingerprint next to it (X.gch.sum: the command without this checkout's path, and the
# content of every header it read), and ccache hashes that instead (pch_external_checksum).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:+$CCACHE_SLOPPINESS,}pch_defines,time_macros,include_file_mtime,include_file_ctime"
export CCACHE_PCH_EXTSUM=true

out="" depfile="" prev=""
for arg in "$@"; do
  case "$prev" in
    -o) out="$arg" ;;
    -MF) depfile="$arg" ;;
  esac
  prev="$arg"
done
case "$out" in
  *.gch | *.pch) ;;
  *) exec "$@" ;;
esac

rm -f "$out.sum"
"$@"
[ -n "$depfile" ] && [ -f "$depfile" ] || exit 0
# The depfile: "target: dep dep \" lines, each path relative to the build folder or absolute
# (ccache makes those inside the checkout relative). The build folder's own files are left out
# (cmake_pch.hxx names this checkout's header by its full path); the headers they include are in
# the list. Read in the order of their paths within the checkout, or of their full paths.
{
  printf '%s\n' "$@" | sed -e "s|$root||g"
  sed -e '1s/^[^:]*://' -e 's/\\$//' "$depfile" | tr -s ' \t' '\n\n' |
    sed -e '/^$/d' -e '/cmake_pch\.hxx/d' | xargs -r realpath -m | sed -e "s|^$root/|@/|" | sort -u |
    sed -e "s|^@/|$root/|" | xargs -r cat
} | sha256sum >"$out.sum"
