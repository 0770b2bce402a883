#!/usr/bin/env bash
# Installs weft from a build tree and uses it the three documented ways:
# find_package, pkg-config and FetchContent.  Usage: check.sh <build-dir>
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null

cmake -S "$here/find_package" -B "$work/fp" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/fp" >/dev/null
"$work/fp/consumer" 20 | grep -q "fib(20) = 6765" && echo "ok: find_package"

libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -1)
PKG_CONFIG_PATH="$libdir" cc -O2 -std=c11 "$root/examples/fib.c" \
  $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs weft) -o "$work/pc"
"$work/pc" 20 | grep -q "fib(20) = 6765" && echo "ok: pkg-config"

cmake -S "$here/fetchcontent" -B "$work/fc" -DWEFT_SOURCE="$root" >/dev/null
cmake --build "$work/fc" >/dev/null
"$work/fc/consumer" 20 | grep -q "fib(20) = 6765" && echo "ok: FetchContent"
