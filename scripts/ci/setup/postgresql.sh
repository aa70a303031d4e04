#!/usr/bin/env bash
# PostgreSQL's server binaries for the tests, the chaos line and the store benchmark, which start
# clusters of their own (initdb in a temp dir, a free loopback port) and stop them at the end.
# Installs Debian's `postgresql` only when no server binaries are there; does not start the
# distribution's own cluster (the tests never use it).
set -euo pipefail

if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null 2>&1; then
  echo "postgresql: server binaries already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "postgresql: no server binaries found and not root; install PostgreSQL's server (Debian: apt-get install postgresql)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
# policy-rc.d 101: the package's post-install would start its own cluster; these tests do not use it.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  created_policy=1
fi
status=0
apt-get install -y --no-install-recommends postgresql || status=$?
[ "$created_policy" -eq 0 ] || rm -f "$policy"
[ "$status" -eq 0 ] || exit "$status"
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
echo "postgresql: installed $(ls /usr/lib/postgresql)"
