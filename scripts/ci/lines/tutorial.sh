#!/usr/bin/env bash
# CI line "tutorial": docs/getting-started.md run as a test, as written, from an empty folder
# against the packed tarballs (scripts/ci/lib/run-tutorial.mjs: its ```sh blocks in order, its
# `// file:` blocks written). Fails if any step does. Ends with "tutorial: N passed, M failed".
# TUTORIAL_WORK=<dir> moves the folder (default <tmp>/toolwright-tutorial).
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
# shellcheck source=../lib/packed-tarballs.sh
source "$root/scripts/ci/lib/packed-tarballs.sh"
work="${TUTORIAL_WORK:-${TMPDIR:-/tmp}/toolwright-tutorial}"
rm -rf "$work"
mkdir -p "$work"
if ! packed_tarballs "$work/.release"; then
  echo "tutorial: 0 passed, 1 failed"
  exit 1
fi
node "$root/scripts/ci/lib/run-tutorial.mjs" "$root/docs/getting-started.md" "$work/orders-assistant" "$tarballs"
