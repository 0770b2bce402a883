#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What README.md must tell a newcomer: its introduction names every Lace
# API generation weft provides and their pages (docs/lace.md,
# docs/lace2.md) and the platforms weft supports; its list of documents
# links every page of docs/; its library-user part says how to build the
# shared library and how a program finds it at run time.
# Usage: readme.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
readme="$root/README.md"
failed=0
fail() { echo "FAILED: $*"; failed=1; }
intro=$(sed -n '1,/^## /p' "$readme")
for want in "Lace 1.4, 1.6 and 2" "docs/lace.md" "docs/lace2.md" "WEFT_PROVIDE_LACE" \
            "Platforms" "Linux" "x86-64" "AArch64" "gcc 12" "clang 14"; do
  grep -qF -- "$want" <<<"$intro" || fail "README.md's introduction does not say \"$want\""
done
docs_list=$(sed -n '/^## Documentation/,/^## /p' "$readme")
for page in "$root"/docs/*.md; do
  rel=docs/${page##*/}
  grep -qF "]($rel)" <<<"$docs_list" || fail "README.md's Documentation list does not link $rel"
done
shared=$(sed -n '/^### As a shared library/,/^### /p' "$readme")
for want in "BUILD_SHARED_LIBS=ON" "libweft.so.0" "run-time path" "either order" "LD_LIBRARY_PATH" \
            "CMAKE_INSTALL_RPATH" "ldconfig"; do
  grep -qF -- "$want" <<<"$shared" || fail "README.md's shared-library section does not say \"$want\""
done
[ "$failed" = 0 ] && echo "ok: README.md names Lace 2, the platforms, every docs/ page and the shared library's run-time path"
exit $failed
