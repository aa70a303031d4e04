# Sourced by the CI lines that install the packed tarballs. Sets $tarballs to a folder holding
# them: $CONSUMERS_TARBALLS when given; in CI, the ones scripts/consumers.sh packed earlier in the
# same run (its work folder, $CONSUMERS_WORK or <tmp>/toolwright-consumers); else a fresh pack
# into "$1" (a stale pack from an earlier local run would test old code).
# Returns non-zero, with the pack log printed, when packing fails.
packed_tarballs() {
  local own="$1" root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  local consumers="${CONSUMERS_WORK:-${TMPDIR:-/tmp}/toolwright-consumers}/.release"
  if [ -n "${CONSUMERS_TARBALLS:-}" ]; then
    tarballs="$(cd "$CONSUMERS_TARBALLS" && pwd)"
  elif [ "${CI:-}" = true ] && compgen -G "$consumers/create-toolwright-*.tgz" >/dev/null && compgen -G "$consumers/toolwright-core-*.tgz" >/dev/null; then
    tarballs="$consumers"
  else
    mkdir -p "$own"
    if ! bash "$root/scripts/release-pack.sh" "$own" >"$own/pack.log" 2>&1; then
      sed 's/^/  | /' "$own/pack.log" | tail -20
      return 1
    fi
    tarballs="$(cd "$own" && pwd)"
  fi
  echo "tarballs: $tarballs"
}
