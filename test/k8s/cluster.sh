#!/usr/bin/env bash
# A single-node Kubernetes on this machine, without Docker and without any image registry: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, kube-proxy and a kubelet on containerd + runc, with bridge pod
# networking and CoreDNS, all inside a network namespace of its own. Run as root.
#
#   test/k8s/cluster.sh up      start it (idempotent); prints NETNS=<name>, then KUBECONFIG=<path> as its last line
#   test/k8s/cluster.sh image   build the Dockerfile into the node as dsync:dev; prints dsync:dev as its last line
#   test/k8s/cluster.sh redis   a Redis the pods reach; prints REDIS_URL=<url> as its last line
#   test/k8s/cluster.sh forward <host:port>   a root-namespace loopback port to an address inside the cluster's
#                               namespace (a Service's ClusterIP); prints 127.0.0.1:<port>
#   test/k8s/cluster.sh down    stop everything up started, remove its state, mounts and namespace
#   test/k8s/cluster.sh build   only build (or reuse) the binaries, as up does first
#
# Every address of the cluster exists only in its namespace: the node at 10.89.0.1 on the namespace's loopback,
# pods in 10.88.0.0/24 behind the bridge cni0, Services in 10.0.0.0/24, cluster DNS at 10.0.0.10. The kubeconfig
# it prints reaches the API server from the root namespace through a loopback port (a forwarder that dials inside
# the namespace); inside, join it with `nsenter --net=/run/netns/<name>` (not `ip netns exec`, which remounts
# /sys and hides the cgroups from the kubelet).
#
# What it needs and changes on the machine:
# - apt: containerd, runc, containernetworking-plugins, buildah, iptables, busybox-static, redis-server; Go (the
#   Kubernetes components and two small helpers are built from the Go module proxy into DSYNC_K8S_CACHE);
#   Node.js $NODE_IMAGE_VERSION from test/setup.sh for the image's base.
# - The kubelet sets vm.overcommit_memory=1, kernel.panic=10 and kernel.panic_on_oops=1 (it refuses to run with
#   other values); up records the values it found and down puts them back. Swap may stay on (failSwapOn: false).
# - cgroup v1 hierarchies get a kubepods subtree (the kubelet's, cgroupfs driver); down removes it.
# - Nothing else outside DSYNC_CLUSTER_DIR: containerd has its own root, state and socket there, the CNI plugins
#   keep their IP leases there, kube-proxy leaves the machine's conntrack settings alone.
#
# Environment: DSYNC_CLUSTER_DIR (state, default /var/tmp/dsync-cluster), DSYNC_CLUSTER_NETNS (default dsync),
# DSYNC_K8S_VERSION and the other variables of apiserver.sh; DSYNC_CACHE (test/tools.sh); NODE_EXTRA_CA_CERTS
# (or DSYNC_REGISTRY_CA_CERTS, which wins) for the npm registry behind a TLS-intercepting proxy.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../tools.sh
source "$HERE/../tools.sh" # DSYNC_CACHE, DSYNC_K8S_CACHE, DSYNC_NODE_DIR, NODE_IMAGE_VERSION
K8S_VERSION="${DSYNC_K8S_VERSION:-v1.35.8}"
CACHE_ROOT="$DSYNC_K8S_CACHE"
# shellcheck source=k8s-build.sh
source "$HERE/k8s-build.sh"

STATE="${DSYNC_CLUSTER_DIR:-/var/tmp/dsync-cluster}"
NETNS="${DSYNC_CLUSTER_NETNS:-dsync}"
NETNS_PATH="/run/netns/$NETNS"
NODE_NAME=dsync-node
NODE_IP=10.89.0.1
POD_CIDR=10.88.0.0/24
SERVICE_CIDR=10.0.0.0/24 # apiserver.sh's: its certificate names the first address, 10.0.0.1
DNS_IP=10.0.0.10
NODE_BIN="$CACHE_ROOT/$K8S_VERSION-node"
TOOLS_BIN="$CACHE_ROOT/cluster-tools"
COREDNS_VERSION="${DSYNC_COREDNS_VERSION:-v1.15.0}"
COREDNS_BIN="$CACHE_ROOT/coredns-$COREDNS_VERSION"
BUILDAH_ROOT="$DSYNC_CACHE/buildah"   # image layers, kept between runs so a rebuild reuses them
NPM_VERSION=11.19.1                    # the npm of the image's local base (Node.js 24's line)
PAUSE_IMAGE=dsync.local/pause:1
NODE_BASE_IMAGE="dsync.local/node:$NODE_IMAGE_VERSION"
SOCK="$STATE/containerd/containerd.sock"
# What npm trusts to reach the registry (a TLS-intercepting proxy's CA): the machine's NODE_EXTRA_CA_CERTS, which
# test/run.sh keeps as DSYNC_REGISTRY_CA_CERTS when it points NODE_EXTRA_CA_CERTS at the tests' own CA.
REGISTRY_CA_CERTS="${DSYNC_REGISTRY_CA_CERTS:-${NODE_EXTRA_CA_CERTS:-}}"
# The kubelet's kernel settings (see above), put back by down.
KERNEL_TUNABLES=(vm/overcommit_memory kernel/panic kernel/panic_on_oops)

log() { printf '[cluster.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found: $2"; }
timed() { # <what> <command...>: runs it and logs how long it took
  local what="$1" t0=$SECONDS
  shift
  "$@"
  log "$what: $((SECONDS - t0)) s"
}
in_ns() { nsenter --net="$NETNS_PATH" -- "$@"; }
ctr_() { ctr --address "$SOCK" --namespace k8s.io "$@"; }
bah() { buildah --root "$BUILDAH_ROOT/root" --runroot "$BUILDAH_ROOT/run" --storage-driver overlay "$@"; }

# The commands, in parts by what they do (each part uses the settings and helpers above).
# shellcheck source=lib/cluster-build.sh
source "$HERE/lib/cluster-build.sh"
# shellcheck source=lib/cluster-up.sh
source "$HERE/lib/cluster-up.sh"
# shellcheck source=lib/cluster-image.sh
source "$HERE/lib/cluster-image.sh"
# shellcheck source=lib/cluster-down.sh
source "$HERE/lib/cluster-down.sh"

case "${1:-}" in
  build) cmd_build ;;
  up) cmd_up ;;
  image) cmd_image ;;
  redis) cmd_redis ;;
  forward) shift && cmd_forward "$@" ;;
  down) cmd_down ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
