#!/usr/bin/env bash
# The AI SDK adapter's tests on Node 22, the version `ai` 7 supports (the jest suite runs on the
# machine's Node 20, which loads it too). Node 22 comes from the npm registry's `node` package.
# Ends with "adapters-node22: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../../.."
node22=(npx -y node@22.23.3)
echo "== AI SDK adapter tests on Node $("${node22[@]}" --version)"
results="${TMPDIR:-/tmp}/toolwright-adapters-node22.json"
rm -f "$results"
"${node22[@]}" node_modules/jest/bin/jest.js packages/ai-sdk --json --outputFile="$results"
status=$?
if [ -f "$results" ]; then
  passed=$(node -e "console.log(require('$results').numPassedTests)")
  failed=$(node -e "const r=require('$results'); console.log(r.numFailedTests + r.numRuntimeErrorTestSuites)")
else
  passed=0
  failed=1
fi
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "adapters-node22: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
