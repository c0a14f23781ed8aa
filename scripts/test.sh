#!/usr/bin/env bash
# The one test command (README, .ci/run): build, type-check, lint, then every test file. The
# build comes first: examples/ import the package's own `fleetyard/testing` (dist/).
# Node 20's --test does not expand globs, so the files are listed here.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
npx tsc -p tsconfig.json
npx tsc -p src/ui/tsconfig.json
npx biome check .
mapfile -t files < <(find src test bench examples scripts -name '*.test.ts' -not -path '*/node_modules/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files found" >&2
  exit 1
fi
exec node --import tsx --test --test-reporter=spec --test-concurrency=2 "${files[@]}"
