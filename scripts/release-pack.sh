#!/usr/bin/env bash
# Writes the tarballs users would install into .release/ (or the folder given). Cleans and builds
# the publishable packages once, then packs each with pnpm pack, which rewrites workspace:* ranges to
# real versions (each package's prepack does the same clean build when it is packed alone).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.release}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out"/toolwright-*.tgz "$out"/create-toolwright-*.tgz
pnpm() { npx -y pnpm@12.4.2 "$@"; }
packages=(core codegen nest pg-store mcp ai-sdk openai-agents langchain)
for pkg in "${packages[@]}" create-toolwright; do rm -rf "packages/$pkg/dist"; done
pnpm "${packages[@]/#/--filter=@toolwright/}" build >/dev/null
for pkg in "${packages[@]}"; do
  (cd "packages/$pkg" && pnpm pack --config.ignore-scripts=true --pack-destination "$out" >/dev/null)
done
# create-toolwright (the npm create scaffolder) has no build dependencies on the others.
pnpm --filter=create-toolwright build >/dev/null
(cd packages/create-toolwright && pnpm pack --config.ignore-scripts=true --pack-destination "$out" >/dev/null)
for tarball in "$out"/toolwright-*.tgz "$out"/create-toolwright-*.tgz; do
  if tar xzf "$tarball" -O package/package.json | grep -q '"workspace:'; then
    echo "release-pack: $tarball still has a workspace: range" >&2
    exit 1
  fi
  echo "$tarball"
done
