# Building Kubernetes commands from the Go module proxy; sourced by apiserver.sh (kube-apiserver) and cluster.sh
# (kubelet, kube-controller-manager, kube-scheduler, kube-proxy), so every component comes from one k8s.io/kubernetes
# version built the same way. The caller defines log and die, and K8S_VERSION and CACHE_ROOT.
#
# k8s.io/kubernetes requires its staging modules (k8s.io/api, client-go, ...) at v0.0.0 replaced by ./staging/...,
# which `go install cmd@version` refuses; a wrapper module requiring k8s.io/kubernetes with each staging module
# replaced by its published v0.X.Y builds any of its commands.

human_dur() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# The Go environment of every build: caches beside the binaries, static binaries (CGO_ENABLED=0).
k8s_go_env() {
  export GOMODCACHE="$CACHE_ROOT/go/mod" GOCACHE="$CACHE_ROOT/go/build"
  export GOFLAGS="-trimpath -buildvcs=false" CGO_ENABLED=0 GOWORK=off
  mkdir -p "$GOMODCACHE" "$GOCACHE" "$CACHE_ROOT/src" "$CACHE_ROOT/logs"
}

# go build in the background, printing a heartbeat so a watcher knows it's alive.
go_build_logged() { # <what> <logfile> <go build args...>
  local what="$1" blog="$2" start pid rc=0
  shift 2
  start=$SECONDS
  go build -v "$@" >>"$blog" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null || break
    log "  ... building $what: $(human_dur $((SECONDS - start))) elapsed, $(grep -vc '^go: ' "$blog" || true) packages compiled so far"
  done
  wait "$pid" || rc=$?
  if ((rc != 0)); then
    log "go build of $what failed (exit $rc); last lines of $blog:"
    tail -n 40 "$blog" >&2
    exit "$rc"
  fi
  log "built $what in $(human_dur $((SECONDS - start)))"
}

# Writes the wrapper module into <dir> and sets K8S_LDFLAGS (the version stamps of the official build).
k8s_wrapper_module() { # <dir> <logfile>
  local kd="$1" klog="$2" stg="v0.${K8S_VERSION#v1.}" info gomod commit date nrep
  rm -rf "$kd" && mkdir -p "$kd"
  info=$(cd "$kd" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" 2>>"$klog") ||
    { tail -n 20 "$klog" >&2; die "go mod download k8s.io/kubernetes@$K8S_VERSION failed (log: $klog)"; }
  gomod=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
  [[ -f "$gomod" ]] || die "could not locate go.mod of k8s.io/kubernetes@$K8S_VERSION in: $info"
  commit=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Hash": "\([0-9a-f]*\)".*/\1/p' | head -n1)
  date=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Time": "\([^"]*\)".*/\1/p' | head -n1)
  {
    echo "module dsync.local/kuberneteswrapper"
    echo
    grep -E '^go [0-9]' "$gomod"
    grep -E '^godebug ' "$gomod" || true
    echo
    echo "require k8s.io/kubernetes $K8S_VERSION"
    echo
    echo "replace ("
    grep -E '^[[:space:]]*k8s\.io/[a-z0-9.-]+ => \./staging/' "$gomod" |
      awk -v v="$stg" '{ printf "\t%s => %s %s\n", $1, $1, v }'
    echo ")"
  } >"$kd/go.mod"
  nrep=$(grep -c '=> k8s.io/' "$kd/go.mod" || true)
  ((nrep > 10)) || die "expected the staging replace list in $gomod, found $nrep entries"
  local minor="${K8S_VERSION#v1.}" p
  minor="${minor%%.*}"
  K8S_LDFLAGS="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    K8S_LDFLAGS+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
    if [[ -n "$commit" ]]; then K8S_LDFLAGS+=" -X $p.gitCommit=$commit"; fi
    if [[ -n "$date" ]]; then K8S_LDFLAGS+=" -X $p.buildDate=$date"; fi
  done
}

# Builds k8s.io/kubernetes/cmd/<name> of the wrapper module in <dir> to <out>/<name>.
k8s_build_cmd() { # <dir> <logfile> <name> <out>
  local kd="$1" klog="$2" name="$3" out="$4"
  (cd "$kd" && go get "k8s.io/kubernetes/cmd/$name@$K8S_VERSION" >>"$klog" 2>&1) ||
    { tail -n 40 "$klog" >&2; die "go get k8s.io/kubernetes/cmd/$name@$K8S_VERSION failed (log: $klog)"; }
  (cd "$kd" && go_build_logged "$name" "$klog" -ldflags="$K8S_LDFLAGS" -o "$out/$name" "k8s.io/kubernetes/cmd/$name")
}
