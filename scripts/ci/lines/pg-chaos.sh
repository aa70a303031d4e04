#!/usr/bin/env bash
# The multi-process chaos test of @toolwright/pg-store on a real PostgreSQL server (after the
# build): worker processes resume and run TOOLWRIGHT_CHAOS_RUNS runs (200) with approvals while
# they are SIGKILLed mid-claim, mid-write, between a write and its journal row, mid-journal and
# at random; prints the figures and ends with "pg-chaos: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/../../.."
exec node packages/pg-testkit/dist/chaos/main.js
