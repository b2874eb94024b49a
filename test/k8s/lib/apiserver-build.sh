# shellcheck shell=bash
# test/k8s/apiserver.sh, sourced: build (or reuse) kube-apiserver and etcd in the cache (`build`).

binaries_ok() {
  [[ -f "$1/.complete" && -x "$1/kube-apiserver" && -x "$1/etcd" ]] &&
    "$1/kube-apiserver" --version >/dev/null 2>&1 && "$1/etcd" --version >/dev/null 2>&1
}

cmd_build() {
  need go "Go >= 1.25 is required to build kube-apiserver/etcd"
  mkdir -p "$CACHE_ROOT"
  local out="$CACHE_ROOT/$VERSION_KEY"
  if binaries_ok "$out"; then
    log "cached: $out (kube-apiserver $K8S_VERSION, etcd $ETCD_VERSION)"
    return 0
  fi
  exec 9>"$CACHE_ROOT/.build.lock"
  if ! flock -n 9; then
    log "another build holds $CACHE_ROOT/.build.lock; waiting for it"
    flock 9
  fi
  if binaries_ok "$out"; then
    log "cached (built by a concurrent run): $out"
    return 0
  fi

  local t0=$SECONDS
  k8s_go_env
  local src="$CACHE_ROOT/src" logs="$CACHE_ROOT/logs"
  log "cold/partial build of kube-apiserver $K8S_VERSION + etcd $ETCD_VERSION into $out ($(go version))"
  log "Go caches: GOMODCACHE=$GOMODCACHE GOCACHE=$GOCACHE; build logs in $logs/"

  # ---- etcd: a wrapper main around go.etcd.io/etcd/server/v3/etcdmain --------------------------------
  local ed="$src/etcd-$ETCD_VERSION" elog="$logs/etcd-$ETCD_VERSION.log"
  : >"$elog"
  rm -rf "$ed" && mkdir -p "$ed"
  cat >"$ed/go.mod" <<EOF
module dsync.local/etcdwrapper

go 1.25.0
EOF
  cat >"$ed/main.go" <<'EOF'
// Command etcd is the etcd server, built from go.etcd.io/etcd/server/v3/etcdmain.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
  log "[1/4] resolving etcd $ETCD_VERSION modules (go get)"
  (cd "$ed" && go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >>"$elog" 2>&1 && go mod tidy >>"$elog" 2>&1) ||
    { tail -n 40 "$elog" >&2; die "resolving etcd modules failed (log: $elog)"; }
  log "[2/4] compiling etcd"
  mkdir -p "$out.tmp"
  (cd "$ed" && go_build_logged etcd "$elog" -ldflags='-s -w' -o "$out.tmp/etcd" .)

  # ---- kube-apiserver, from the wrapper module of k8s-build.sh -------------------------------------------
  local kd="$src/kubernetes-$K8S_VERSION" klog="$logs/kube-apiserver-$K8S_VERSION.log"
  : >"$klog"
  log "[3/4] resolving k8s.io/kubernetes $K8S_VERSION (staging modules -> v0.${K8S_VERSION#v1.}); first run downloads ~0.5 GB"
  k8s_wrapper_module "$kd" "$klog"
  log "[4/4] compiling kube-apiserver (the long step: ~1900 packages on a cold cache)"
  k8s_build_cmd "$kd" "$klog" kube-apiserver "$out.tmp"

  {
    echo "kube-apiserver $K8S_VERSION"
    echo "etcd $ETCD_VERSION"
    go version
    date -u +%Y-%m-%dT%H:%M:%SZ
  } >"$out.tmp/.complete"
  binaries_ok "$out.tmp" || die "built binaries in $out.tmp do not run"
  rm -rf "$out" && mv "$out.tmp" "$out"
  log "done in $(human_dur $((SECONDS - t0))): $out ($(du -sh "$out" | cut -f1)); cache total $(du -sh "$CACHE_ROOT" | cut -f1)"
}
