#!/usr/bin/env bash
# `npm run test:quick`: the loop to run before a commit, not instead of `npm test`. Typecheck,
# lint, the dependency check and every unit test, then only the integration test files that a
# change touches:
#
# - the change is everything since the merge base with the main branch (QUICK_BASE overrides
#   it: a branch, tag or commit) plus staged, unstaged and untracked files, as `vitest --changed`
#   reads them;
# - vitest runs an integration file when the file itself or any module it imports, directly or
#   not, is among the changed files (vitest's module graph);
# - a change to what no test imports but every test depends on (migrations/, tests/setup/,
#   vitest.config.ts, package.json, package-lock.json, patches/) runs every integration file;
# - integration files run on PGlite, and on Postgres too when TEST_DATABASE_URL is set.
#
# No Playwright and no build: `npm test` runs those.
set -euo pipefail
cd "$(dirname "$0")/.."

base="${QUICK_BASE:-}"
if [ -z "$base" ]; then
  for candidate in origin/main main; do
    if git rev-parse --verify --quiet "$candidate" >/dev/null; then
      base=$(git merge-base HEAD "$candidate")
      break
    fi
  done
fi
base="${base:-HEAD}"

changed=$(
  {
    git diff --name-only "$base"...HEAD
    git diff --name-only HEAD
    git ls-files --others --exclude-standard
  } | sort -u
)

started=$SECONDS
npm run --silent typecheck
npm run --silent lint
npm run --silent check:deps
npx vitest run --project unit

echo "Integration files touched by the change since $(git rev-parse --short "$base"):"
if grep -qE '^(migrations/|tests/setup/|vitest\.config\.ts$|package(-lock)?\.json$|patches/)' <<<"$changed"; then
  echo "  all of them (the change reaches every test's database or configuration)"
  npx vitest run --project 'integration-*'
else
  npx vitest run --project 'integration-*' --changed "$base" --passWithNoTests
fi
echo "test:quick took $((SECONDS - started)) s"
