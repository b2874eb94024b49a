# shellcheck shell=bash
# test/k8s/cluster.sh, sourced: start the network namespace, the control plane, containerd, the node and CoreDNS (`up`).

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
