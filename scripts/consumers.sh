#!/usr/bin/env bash
# The consumer matrix: packs the tarballs once, then, in a copy of each project under consumers/
# (outside the repository, so nothing resolves from the workspace's node_modules), installs them
# from its committed lockfile, runs tools-codegen and --check, builds, and runs its smoke
# conversation. Prints one line per consumer and "consumers: N passed, M failed".
#
#   scripts/consumers.sh [--update-lockfiles] [name ...]
#
# --update-lockfiles installs without the lockfile and copies the new one back into consumers/.
# CONSUMERS_TARBALLS=<dir> reuses tarballs packed already; CONSUMERS_WORK=<dir> moves the copies;
# CONSUMERS_INSTALL_SECONDS=<n> bounds each install (180), which is tried once more when it runs out.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
update=0
names=()
for arg in "$@"; do
  case "$arg" in
    --update-lockfiles) update=1 ;;
    -*) echo "consumers: unknown flag $arg" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for dir in "$root"/consumers/*/; do
    [ "$(basename "$dir")" = shared ] || names+=("$(basename "$dir")")
  done
fi

work="${CONSUMERS_WORK:-${TMPDIR:-/tmp}/toolwright-consumers}"
rm -rf "$work"
mkdir -p "$work/consumers" "$work/logs"
started=$(date +%s)

cp "$root/README.md" "$work/README.md"
rm -rf "$work/docs" && cp -r "$root/docs" "$work/docs"
if [ -n "${CONSUMERS_TARBALLS:-}" ]; then
  # Tarballs packed already (e.g. by release:pack): reuse them.
  mkdir -p "$work/.release" && cp "$CONSUMERS_TARBALLS"/toolwright-*.tgz "$work/.release/"
elif ! bash "$root/scripts/release-pack.sh" "$work/.release" >"$work/logs/pack.log" 2>&1; then
  sed 's/^/  | /' "$work/logs/pack.log" | tail -20
  echo "consumer (all): FAILED (release:pack; log $work/logs/pack.log)"
  echo "consumers: 0 passed, ${#names[@]} failed"
  exit 1
fi

npm_flags=(--prefer-offline --no-audit --no-fund --loglevel=error)
pnpm_command=(npx -y pnpm@12.4.2)
pnpm() { "${pnpm_command[@]}" "$@"; }

# One step of one consumer; its output goes to the consumer's log.
step() {
  local log="$1" t0=$SECONDS status=0; shift
  echo "\$ $*" >>"$log"
  "$@" >>"$log" 2>&1 || status=$?
  echo "[$(( SECONDS - t0 ))s, exit $status] $*" >>"$log"
  return "$status"
}

# An install is bounded: npm has been seen to sit idle for good after fetching its tarballs (no
# socket open, nothing pending but its own promises), and one stuck install would hold the whole
# run until CI's limit. One that runs out of time is stopped, its process group with it, and tried
# once more; an install that fails outright is not retried.
install_seconds="${CONSUMERS_INSTALL_SECONDS:-180}"
bounded_install() {
  local log="$1" status=0; shift
  step "$log" timeout --kill-after=10 "$install_seconds" "$@" || status=$?
  # 124: timed out; 137: killed after the grace period.
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "consumer $(basename "$PWD"): warning: '$*' was still running after ${install_seconds}s; stopped it and installing again"
    status=0
    step "$log" timeout --kill-after=10 "$install_seconds" "$@" || status=$?
  fi
  return "$status"
}

# A consumer whose package.json names pnpm as its packageManager installs with pnpm, others with npm.
manager() {
  if grep -q '"packageManager": *"pnpm@' "$1/package.json"; then echo pnpm; else echo npm; fi
}

install() {
  local dir="$1" log="$2"
  if [ "$(manager "$dir")" = pnpm ]; then
    if [ "$update" -eq 1 ]; then
      # Without the old lockfile: pnpm would keep the dependencies it recorded for a tarball.
      (cd "$dir" && rm -f pnpm-lock.yaml && bounded_install "$log" "${pnpm_command[@]}" install --ignore-workspace --no-frozen-lockfile --prefer-offline)
    else
      (cd "$dir" && bounded_install "$log" "${pnpm_command[@]}" install --ignore-workspace --frozen-lockfile --prefer-offline)
    fi
  elif [ "$update" -eq 1 ]; then
    # Twice: the first install from no lockfile can record extraneous entries that the next prunes.
    (cd "$dir" && rm -f package-lock.json && bounded_install "$log" npm install "${npm_flags[@]}" && bounded_install "$log" npm install "${npm_flags[@]}")
  else
    # npm install, not npm ci: it installs the versions the lockfile pins just the same, and
    # tolerates an optional dependency missing from the registry (vite's
    # napi-windows-process-start-time), which npm ci reports as a lockfile out of sync.
    (cd "$dir" && bounded_install "$log" npm install "${npm_flags[@]}")
  fi
}

run() {
  if [ "$(manager "$1")" = pnpm ]; then (cd "$1" && step "$2" pnpm run "$3"); else (cd "$1" && step "$2" npm run "$3"); fi
}

passed=0
failed=0
for name in "${names[@]}"; do
  src="$root/consumers/$name"
  dir="$work/consumers/$name"
  log="$work/logs/$name.log"
  if [ ! -f "$src/package.json" ]; then
    echo "consumer $name: FAILED (no consumers/$name/package.json)"
    failed=$((failed + 1))
    continue
  fi
  cp -R "$src" "$dir"
  # Files several projects would carry word for word live once in consumers/shared/<SHARED>;
  # a project's own copy of a file wins.
  if [ -f "$src/SHARED" ]; then
    cp -Rn "$root/consumers/shared/$(tr -d '[:space:]' <"$src/SHARED")/." "$dir/"
    rm -f "$dir/SHARED"
  fi
  rm -rf "$dir/node_modules" "$dir/dist"
  t0=$(date +%s)
  failure=""
  if ! install "$dir" "$log"; then
    failure="install"
  else
    for lock in package-lock.json pnpm-lock.yaml; do
      [ -f "$dir/$lock" ] || continue
      if [ "$update" -eq 1 ]; then
        node "$root/scripts/unpin-tarballs.js" "$dir/$lock" >"$src/$lock"
      elif ! node "$root/scripts/unpin-tarballs.js" "$dir/$lock" | cmp -s - "$src/$lock"; then
        # The pinned versions were installed; what moved is registry metadata (an optional
        # dependency published or withdrawn upstream), which must not fail a run on its own.
        echo "consumer $name: warning: the install changed $lock; run scripts/consumers.sh --update-lockfiles $name"
      fi
    done
  fi
  if [ -z "$failure" ]; then
    cores=$(find -L "$dir/node_modules" -path '*/@toolwright/core/package.json' 2>/dev/null | xargs -r realpath | sort -u | wc -l)
    if [ "$cores" -ne 1 ]; then
      failure="$cores copies of @toolwright/core installed"
    else
      for script in codegen codegen:check build smoke; do
        if ! run "$dir" "$log" "$script"; then failure="$script"; break; fi
      done
    fi
  fi
  seconds=$(( $(date +%s) - t0 ))
  if [ -z "$failure" ]; then
    echo "consumer $name: ok (${seconds}s)"
    passed=$((passed + 1))
  else
    sed 's/^/  | /' "$log" | tail -15
    echo "consumer $name: FAILED ($failure; log $log)"
    failed=$((failed + 1))
  fi
done

echo "consumers: $passed passed, $failed failed in $(( $(date +%s) - started ))s"
[ "$failed" -eq 0 ]
