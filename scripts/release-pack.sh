#!/usr/bin/env bash
# Writes the tarballs users would install into .release/ (or the folder given), with pnpm pack:
# it runs each package's prepack (clean build) and rewrites workspace:* ranges to real versions.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.release}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out"/toolwright-*.tgz
for pkg in core codegen nest; do
  (cd "packages/$pkg" && npx -y pnpm@12.4.2 pack --pack-destination "$out" >/dev/null)
done
for tarball in "$out"/toolwright-*.tgz; do
  if tar xzf "$tarball" -O package/package.json | grep -q '"workspace:'; then
    echo "release-pack: $tarball still has a workspace: range" >&2
    exit 1
  fi
  echo "$tarball"
done
