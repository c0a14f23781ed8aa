#!/usr/bin/env bash
# The one test command (README, .ci/run): type-check, lint, build, then every test file.
# Node 20's --test does not expand globs, so the files are listed here.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json
npx biome check .
npm run --silent build
mapfile -t files < <(find src test bench -name '*.test.ts' -not -path '*/node_modules/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files found" >&2
  exit 1
fi
exec node --import tsx --test --test-reporter=spec --test-concurrency=2 "${files[@]}"
