#!/usr/bin/env bash
# Adds up the runs whose logs are given, each by its last `tests: N passed, N failed` line, and prints one such
# line for all of them (test/run.sh for its two shards, .ci/run for its two Node.js legs). A log without that line
# (a run killed before its end) is named and counted as a failure; the exit status is then 1. The `failed: ...`
# lines the summary reporter writes above each run's summary are repeated first, so a log's tail names them.
set -uo pipefail
passed=0 failed=0 status=0
for log in "$@"; do
  grep -E '^failed: ' "$log" | awk '!seen[$0]++' # test/run.sh's log holds each shard's lines and its own repeat
  if ! line=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1) || [ -z "$line" ]; then
    echo "tests: $log ended without its summary line" >&2
    failed=$((failed + 1)) status=1
    continue
  fi
  read -r _ p _ f _ <<<"$line"
  passed=$((passed + p)) failed=$((failed + f))
done
printf 'tests: %d passed, %d failed\n' "$passed" "$failed"
exit $status
