# shellcheck shell=bash
# test/k8s/cluster.sh, sourced: build (or reuse) the node binaries, the small helpers and CoreDNS (`build`).

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
