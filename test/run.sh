#!/usr/bin/env bash
# The whole test suite: starts a real redis-server on a free port, runs every mocha suite (unit, integration
# against Redis, conformance, Kubernetes against a real kube-apiserver) and ends with `N passed, N failed`.
# For the integration, conformance and Kubernetes specs it also starts, beside that server, a Redis Cluster
# (3 masters, 3 replicas) and a Sentinel setup (master, replica, 3 Sentinels) with test/redis-topology.sh, and
# exports REDIS_CLUSTER_TEST_NODES, REDIS_SENTINEL_TEST_NODES and REDIS_SENTINEL_TEST_NAME.
# `npm test` runs test/setup.sh first, which installs what is missing; run this alone for a part of the suite:
#   bash test/run.sh 'test/integration/**/*.test.ts'
set -euo pipefail
cd "$(dirname "$0")/.."
source test/tools.sh # SCIM2_BIN, SCIM_SANITY_BIN, DSYNC_K8S_CACHE under DSYNC_CACHE

# The whole suite runs as two shards side by side, each this script with its own specs, its own redis-server,
# Redis Cluster and Sentinel setup: the suite spends most of its time waiting (real time outages, failovers,
# timeouts), so two shards on two cores take about 60% of one run's wall time. The integration specs run live;
# the other shard's output is kept and printed after, then one line adds both up. DSYNC_TEST_SHARDS=1 runs the
# suite as one process (one redis-server), as a part of it always is.
if [ "$#" -eq 0 ] && [ "${DSYNC_TEST_SHARDS:-2}" != 1 ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/dsync-shards.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  bash "$0" "test/unit/**/*.test.ts" "test/browser/**/*.test.ts" "test/readme/**/*.test.ts" \
    "test/conformance/**/*.test.ts" "test/k8s/**/*.test.ts" "test/e2e/**/*.test.ts" >"$out/other.log" 2>&1 &
  other=$!
  echo "== shard 1 of 2: integration (shown as it runs; shard 2, unit, browser, readme, conformance, Kubernetes and end to end, is printed when both end)"
  first=0
  bash "$0" "test/integration/**/*.test.ts" 2>&1 | tee "$out/integration.log" || first=$?
  second=0
  wait "$other" || second=$?
  echo
  echo "== shard 2 of 2: unit, browser, readme, conformance, Kubernetes, end to end"
  cat "$out/other.log"
  # Each shard ends with its own `tests: N passed, N failed`; the run's own last line adds them up.
  echo
  bash test/support/sum-summaries.sh "$out/integration.log" "$out/other.log" || first=1
  [ "$first" = 0 ] && [ "$second" = 0 ]
  exit
fi

command -v redis-server >/dev/null || { echo "redis-server is not installed: run bash test/setup.sh" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dsync-test.XXXXXX")
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" --daemonize yes \
  --pidfile "$work/redis.pid" --logfile "$work/redis.log"
cleanup() {
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  bash test/redis-topology.sh stop "$work/cluster"
  bash test/redis-topology.sh stop "$work/sentinel"
  # A process that is still ending may write one more file there: try again once, and never fail the run for it.
  rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work"; } || true
}
trap cleanup EXIT
for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
export REDIS_TEST_URL="redis://127.0.0.1:$port"
# The fake Microsoft Entra ID serves TLS with a throwaway CA (msal-node refuses an http authority); Node reads
# NODE_EXTRA_CA_CERTS only at start, so it is set here for every test process. What the machine set there (a
# TLS-intercepting proxy's CA) stays DSYNC_REGISTRY_CA_CERTS, for the image build's npm (test/k8s/cluster.sh).
bash test/support/test-ca.sh "$work/tls"
export DSYNC_REGISTRY_CA_CERTS="${DSYNC_REGISTRY_CA_CERTS:-${NODE_EXTRA_CA_CERTS:-}}"
export DSYNC_TEST_TLS_DIR="$work/tls" NODE_EXTRA_CA_CERTS="$work/tls/ca.crt"
echo "node $(node --version); redis-server $(redis-server --version | grep -o 'v=[0-9.]*') on $REDIS_TEST_URL"

specs=("test/unit/**/*.test.ts" "test/integration/**/*.test.ts" "test/browser/**/*.test.ts" "test/readme/**/*.test.ts" "test/conformance/**/*.test.ts" "test/k8s/**/*.test.ts" "test/e2e/**/*.test.ts")
if [ "$#" -gt 0 ]; then specs=("$@"); fi

# The shared cluster and Sentinel setup, started side by side (each takes a few seconds to converge).
if [[ " ${specs[*]} " == *"test/integration"* || " ${specs[*]} " == *"test/conformance"* || " ${specs[*]} " == *"test/k8s"* ]]; then
  bash test/redis-topology.sh cluster "$work/cluster" >"$work/cluster.out" 2>&1 &
  cluster_pid=$!
  bash test/redis-topology.sh sentinel "$work/sentinel" >"$work/sentinel.out" 2>&1 &
  sentinel_pid=$!
  # Both finish (or stop what they started) before a failure ends the run: the exit trap must not race a start.
  failed=0
  wait "$cluster_pid" || failed=1
  wait "$sentinel_pid" || failed=1
  if [ "$failed" = 1 ]; then cat "$work/cluster.out" "$work/sentinel.out" >&2; exit 1; fi
  REDIS_CLUSTER_TEST_NODES=$(tail -1 "$work/cluster.out")
  REDIS_SENTINEL_TEST_NODES=$(tail -1 "$work/sentinel.out")
  export REDIS_CLUSTER_TEST_NODES REDIS_SENTINEL_TEST_NODES REDIS_SENTINEL_TEST_NAME=dsync
  echo "Redis Cluster on $REDIS_CLUSTER_TEST_NODES; Sentinels ($REDIS_SENTINEL_TEST_NAME) on $REDIS_SENTINEL_TEST_NODES"
fi
# The operator tests run against a real kube-apiserver + etcd, built once from the Go module proxy and cached
# in $DSYNC_K8S_CACHE (about 4 minutes the first time, instant afterwards); helm 3/4, kubectl and promql-check
# for the chart tests and kstatus for the GitOps health tests the same way (helm.sh, kstatus.sh).
if [[ " ${specs[*]} " == *"test/k8s"* ]]; then bash test/k8s/apiserver.sh build && bash test/k8s/helm.sh build && bash test/k8s/kstatus.sh build; fi
# The end-to-end tests run the chart on a local single-node cluster (test/k8s/cluster.sh, as root): its
# Kubernetes components and CoreDNS build once the same way (about 8 minutes), helm and kubectl come from helm.sh.
if [[ " ${specs[*]} " == *"test/e2e"* ]]; then bash test/k8s/helm.sh build && bash test/k8s/cluster.sh build; fi
exec_status=0
npx mocha --reporter test/support/summary-reporter.cjs "${specs[@]}" || exec_status=$?
exit $exec_status
