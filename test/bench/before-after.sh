#!/usr/bin/env bash
# Runs one benchmark on an earlier commit and on this checkout, alternating, in one run, so a refactoring's cost
# is read side by side on the same (noisy) machine rather than against figures from another day.
#   bash test/bench/before-after.sh <ref> <bench file> [rounds]
#   e.g. bash test/bench/before-after.sh de9977f test/bench/scim-load.bench.ts 2
# Each side runs its own copy of the bench file with its own source tree; the earlier commit is checked out
# once under $DSYNC_CACHE/bench-trees (outside this checkout) and shares this checkout's node_modules.
# Benchmark knobs (BENCH_USERS, BENCH_BIG, ...) pass through the environment to both sides.
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=${1:?usage: before-after.sh <ref> <bench file> [rounds]}
bench=${2:?usage: before-after.sh <ref> <bench file> [rounds]}
rounds=${3:-2}
source test/tools.sh
sha=$(git rev-parse --short "$ref")
before="$DSYNC_CACHE/bench-trees/$sha"
if [ ! -d "$before" ]; then
  mkdir -p "$(dirname "$before")"
  git worktree add --detach "$before" "$sha" >/dev/null
fi
[ -e "$before/node_modules" ] || ln -s "$PWD/node_modules" "$before/node_modules"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    dir=$PWD; [ "$side" = before ] && dir=$before
    echo "=== round $round/$rounds, $side ($( [ "$side" = before ] && echo "$sha" || git rev-parse --short HEAD))"
    (cd "$dir" && npx tsx "$bench")
  done
done
