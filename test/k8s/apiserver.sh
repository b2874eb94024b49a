#!/usr/bin/env bash
# Real kube-apiserver + etcd for tests, envtest-style, without Docker.
#
#   test/k8s/apiserver.sh build                     build (or reuse) kube-apiserver + etcd in the cache
#   test/k8s/apiserver.sh start <dir>               start etcd + kube-apiserver; writes <dir>/kubeconfig, <dir>/env
#   test/k8s/apiserver.sh restart-apiserver <dir> [--hard]
#                                                   stop (SIGTERM, or SIGKILL with --hard) and restart only
#                                                   kube-apiserver on the same port, same certs and etcd
#   test/k8s/apiserver.sh stop <dir>                stop both, remove the etcd data dir (logs are kept)
#   test/k8s/apiserver.sh bin-dir                   print the binary dir; exit 1 if not built yet
#
# Environment:
#   DSYNC_K8S_CACHE     cache root (default $DSYNC_CACHE/k8s, DSYNC_CACHE defaulting to ~/.cache/dsync); holds <version>/ plus the Go module/build caches
#   DSYNC_K8S_VERSION   Kubernetes version (default v1.35.8)
#   DSYNC_ETCD_VERSION  etcd version (default v3.6.16)
#   DSYNC_K8S_BIN_DIR   use kube-apiserver + etcd from this dir instead of the cache (start only)
#   DSYNC_K8S_READY_TIMEOUT  seconds to wait for /readyz (default 60)
#   DSYNC_K8S_APISERVER_ARGS extra kube-apiserver flags, space-separated (e.g. --profiling=true)
#   DSYNC_K8S_NODE_IP   serve a whole cluster (test/k8s/cluster.sh) whose node has this address: listen on every
#                       address, advertise this one (in the certificate too), keep the ServiceAccount admission
#                       plugin and the `kubernetes` Service's endpoints, reach kubelets by their InternalIP
#
# Needs: bash, go (>= 1.25, module proxy reachable) for `build`; openssl, curl, awk for `start`.
# There are no controllers (no GC, no namespace finalization, no SA tokens), just like envtest, unless
# test/k8s/cluster.sh starts them beside it.
set -euo pipefail

K8S_VERSION="${DSYNC_K8S_VERSION:-v1.35.8}"
ETCD_VERSION="${DSYNC_ETCD_VERSION:-v3.6.16}"
# shellcheck source=../tools.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tools.sh" # DSYNC_K8S_CACHE, under DSYNC_CACHE
# shellcheck source=k8s-build.sh
source "$(dirname "${BASH_SOURCE[0]}")/k8s-build.sh" # k8s_go_env, k8s_wrapper_module, k8s_build_cmd, go_build_logged
CACHE_ROOT="$DSYNC_K8S_CACHE"
VERSION_KEY="${K8S_VERSION}-etcd-${ETCD_VERSION}"
BIN_DIR="${DSYNC_K8S_BIN_DIR:-$CACHE_ROOT/$VERSION_KEY}"
READY_TIMEOUT="${DSYNC_K8S_READY_TIMEOUT:-60}"

log() { printf '[apiserver.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH (${2:-install it})"; }

# The commands, in parts by what they do (each part uses the settings and helpers above).
# shellcheck source=lib/apiserver-build.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apiserver-build.sh"
# shellcheck source=lib/apiserver-run.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apiserver-run.sh"

case "${1:-}" in
  build) cmd_build ;;
  start) shift && cmd_start "$@" ;;
  restart-apiserver) shift && cmd_restart_apiserver "$@" ;;
  stop) shift && cmd_stop "$@" ;;
  bin-dir)
    [[ -x "$BIN_DIR/kube-apiserver" && -x "$BIN_DIR/etcd" ]] || { echo "$BIN_DIR (not built)" >&2; exit 1; }
    echo "$BIN_DIR"
    ;;
  *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
