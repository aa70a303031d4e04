#!/usr/bin/env bash
# CI line "templates": every create-toolwright template, created from the packed tarballs in an
# empty folder the way a user would (npm exec of the create-toolwright tarball), its @toolwright/*
# dependencies pointed at the tarballs (scripts/use-tarballs.js), then npm install, build, test,
# and a conversation (scripts/ci/lib/template-conversation.mjs: `npm start` against the scripted
# model, and against a local "API" with a key; the Nest app over HTTP; the MCP client).
# One verdict per template, then "templates: N passed, M failed".
#
#   scripts/ci/lines/templates.sh [template ...]
# TEMPLATES_WORK=<dir> moves the projects (default <tmp>/toolwright-templates).
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
# shellcheck source=../lib/packed-tarballs.sh
source "$root/scripts/ci/lib/packed-tarballs.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(node nest mcp)
work="${TEMPLATES_WORK:-${TMPDIR:-/tmp}/toolwright-templates}"
rm -rf "$work"
mkdir -p "$work/logs"
started=$(date +%s)

if ! packed_tarballs "$work/.release"; then
  echo "template (all): FAILED (release:pack)"
  echo "templates: 0 passed, ${#names[@]} failed"
  exit 1
fi
create=$(compgen -G "$tarballs/create-toolwright-*.tgz" | head -1)
npm_flags=(--prefer-offline --no-audit --no-fund --loglevel=error)

step() {
  local log="$1" t0=$SECONDS status=0; shift
  echo "\$ $*" >>"$log"
  "$@" >>"$log" 2>&1 || status=$?
  echo "[$(( SECONDS - t0 ))s, exit $status] $*" >>"$log"
  return "$status"
}

passed=0
failed=0
for name in "${names[@]}"; do
  dir="$work/$name/app"
  log="$work/logs/$name.log"
  mkdir -p "$work/$name"
  t0=$(date +%s)
  failure=""
  if ! (cd "$work/$name" && step "$log" npm exec --yes --package="$create" -- create-toolwright app --template "$name"); then
    failure="create"
  elif ! step "$log" node "$root/scripts/use-tarballs.js" "$dir" "$tarballs"; then
    failure="use-tarballs"
  elif ! (cd "$dir" && step "$log" npm install "${npm_flags[@]}"); then
    failure="npm install"
  elif ! (cd "$dir" && step "$log" npm run build); then
    failure="npm run build"
  elif ! (cd "$dir" && step "$log" npm test); then
    failure="npm test"
  else
    cp "$root/scripts/ci/lib/template-conversation.mjs" "$dir/.ci-conversation.mjs"
    (cd "$dir" && step "$log" node .ci-conversation.mjs "$name") || failure="conversation"
  fi
  seconds=$(( $(date +%s) - t0 ))
  if [ -z "$failure" ]; then
    grep -E '^  ok: ' "$log" | sed 's/^/  /'
    echo "template $name: ok (${seconds}s)"
    passed=$((passed + 1))
  else
    sed 's/^/  | /' "$log" | tail -25
    echo "template $name: FAILED ($failure; log $log)"
    failed=$((failed + 1))
  fi
done

echo "templates took $(( $(date +%s) - started ))s"
echo "templates: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
