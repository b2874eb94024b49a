#!/usr/bin/env bash
# The chart tests' tools, built from the Go module proxy (no binary downloads reach these machines): Helm 3 and 4,
# kubectl, promql-check (Prometheus' own PromQL parser, for the chart's alerts and dashboard), and the release
# tools: registry (the CNCF Distribution OCI registry, to push the chart to and install it from) and cosign (to
# sign and verify what a release pushes). Cached and idempotent, like apiserver.sh.
#
#   test/k8s/helm.sh build          build (or reuse) every tool in the cache
#   test/k8s/helm.sh bin <tool>     print the path of helm3 | helm4 | kubectl | promql-check | registry | cosign;
#                                   exit 1 if not built
#
# Environment:
#   DSYNC_CACHE             cache root (default ~/.cache/dsync); binaries go to <root>/<tool>/<version>/
#   DSYNC_HELM3_VERSION     default v3.22.0
#   DSYNC_HELM4_VERSION     default v4.3.1 ("" skips Helm 4)
#   DSYNC_KUBECTL_VERSION   default v1.35.8 (the test API server's version; built from k8s.io/kubectl v0.X.Y)
#   DSYNC_PROMETHEUS_VERSION  default v0.316.0 (Go module version of the Prometheus 3.x whose parser is used)
#   DSYNC_REGISTRY_VERSION  default v3.1.2 (github.com/distribution/distribution/v3)
#   DSYNC_COSIGN_VERSION    default v3.1.3 (github.com/sigstore/cosign/v3)
#   DSYNC_K8S_CACHE         where apiserver.sh keeps its Go module cache (shared, so modules download once)
set -euo pipefail

CACHE="${DSYNC_CACHE:-${HOME:-/root}/.cache/dsync}"
HELM3_VERSION="${DSYNC_HELM3_VERSION:-v3.22.0}"
HELM4_VERSION="${DSYNC_HELM4_VERSION-v4.3.1}"
KUBECTL_VERSION="${DSYNC_KUBECTL_VERSION:-v1.35.8}"
PROMETHEUS_VERSION="${DSYNC_PROMETHEUS_VERSION:-v0.316.0}"
REGISTRY_VERSION="${DSYNC_REGISTRY_VERSION:-v3.1.2}"
COSIGN_VERSION="${DSYNC_COSIGN_VERSION:-v3.1.3}"
GO_CACHE_ROOT="${DSYNC_K8S_CACHE:-$CACHE/k8s}/go"

log() { printf '[helm.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

dir_of() { # <tool> -> cache dir of its version
  case "$1" in
    helm3) echo "$CACHE/helm/$HELM3_VERSION" ;;
    helm4) [[ -n "$HELM4_VERSION" ]] || return 1; echo "$CACHE/helm/$HELM4_VERSION" ;;
    kubectl) echo "$CACHE/kubectl/$KUBECTL_VERSION" ;;
    promql-check) echo "$CACHE/promql-check/$PROMETHEUS_VERSION" ;;
    registry) echo "$CACHE/registry/$REGISTRY_VERSION" ;;
    cosign) echo "$CACHE/cosign/$COSIGN_VERSION" ;;
    *) die "unknown tool '$1' (helm3, helm4, kubectl, promql-check, registry, cosign)" ;;
  esac
}
bin_name() { case "$1" in helm[34]) echo helm ;; *) echo "$1" ;; esac; }
built() { # <dir> <binary>: complete and runs (kubectl needs --client without a cluster)
  [[ -f "$1/.complete" && -x "$1/$2" ]] || return 1
  case "$2" in
    kubectl) "$1/$2" version --client >/dev/null 2>&1 ;;
    promql-check) echo '"up"' | "$1/$2" >/dev/null 2>&1 ;;
    registry) "$1/$2" --version >/dev/null 2>&1 ;;
    *) "$1/$2" version >/dev/null 2>&1 ;;
  esac
}

# go build in a scratch module; a heartbeat every 30 s so a CI log shows it is alive.
go_build() { # <what> <out-binary> <logfile> <build args...>
  local what="$1" out="$2" blog="$3" pid rc=0 t0=$SECONDS
  shift 3
  go build -v -o "$out" "$@" >>"$blog" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && log "  ... building $what: $((SECONDS - t0))s, $(grep -vc '^go: ' "$blog" || true) packages"
  done
  wait "$pid" || rc=$?
  ((rc == 0)) || { tail -n 40 "$blog" >&2; die "go build of $what failed (log: $blog)"; }
  log "built $what in $((SECONDS - t0))s"
}

# A wrapper module pinned to one version of the tool's module, so its go.mod (and its k8s.io versions) rule.
build_helm() { # <major> <version>
  local major="$1" version="$2" out src blog client minor ld
  out=$(dir_of "helm$major")
  src="$CACHE/helm/src/$version" blog="$CACHE/helm/logs/$version.log"
  mkdir -p "$src" "$(dirname "$blog")" && : >"$blog"
  printf 'module dsync.local/helmwrapper\n\ngo 1.26.0\n' >"$src/go.mod"
  (cd "$src" && go get "helm.sh/helm/v$major@$version" >>"$blog" 2>&1) || { tail -n 20 "$blog" >&2; die "go get helm $version failed"; }
  # The official Makefile stamps the version and, for Helm 3, the Kubernetes version `helm template` assumes
  # without a cluster (else v1.20.0, which fails any modern kubeVersion constraint).
  client=$(cd "$src" && go list -m -f '{{.Version}}' k8s.io/client-go)
  minor=${client#v0.}
  minor=${minor%%.*}
  ld="-s -w -X helm.sh/helm/v$major/internal/version.version=$version -X helm.sh/helm/v$major/internal/version.gitTreeState=clean"
  if ((major == 3)); then
    local p
    for p in pkg/lint/rules pkg/chartutil; do ld+=" -X helm.sh/helm/v3/$p.k8sVersionMajor=1 -X helm.sh/helm/v3/$p.k8sVersionMinor=$minor"; done
  fi
  log "building helm $version (client-go $client) into $out"
  mkdir -p "$out.tmp"
  (cd "$src" && go_build "helm $version" "$out.tmp/helm" "$blog" -ldflags="$ld" "helm.sh/helm/v$major/cmd/helm")
  finish "$out" helm "helm $version"
}

# kubectl's main is a few lines over k8s.io/kubectl; the wrapper avoids building from k8s.io/kubernetes.
build_kubectl() {
  local version="$KUBECTL_VERSION" out src blog stg minor ld p
  out=$(dir_of kubectl)
  stg="v0.${version#v1.}" minor="${version#v1.}"
  minor=${minor%%.*}
  src="$CACHE/kubectl/src/$version" blog="$CACHE/kubectl/logs/$version.log"
  mkdir -p "$src" "$(dirname "$blog")" && : >"$blog"
  printf 'module dsync.local/kubectlwrapper\n\ngo 1.25.0\n' >"$src/go.mod"
  cat >"$src/main.go" <<'EOF'
// Command kubectl is k8s.io/kubernetes/cmd/kubectl, built from the k8s.io/kubectl module.
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
EOF
  (cd "$src" && go get "k8s.io/kubectl@$stg" "k8s.io/component-base@$stg" >>"$blog" 2>&1 && go mod tidy >>"$blog" 2>&1) ||
    { tail -n 20 "$blog" >&2; die "resolving k8s.io/kubectl@$stg failed"; }
  ld="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
  log "building kubectl $version into $out"
  mkdir -p "$out.tmp"
  (cd "$src" && go_build "kubectl $version" "$out.tmp/kubectl" "$blog" -ldflags="$ld" .)
  finish "$out" kubectl "kubectl $version"
}

# Prometheus' PromQL parser (types checked: rate() of an instant vector is an error) behind a tiny main.
build_promql_check() {
  local version="$PROMETHEUS_VERSION" out src blog
  out=$(dir_of promql-check)
  src="$CACHE/promql-check/src/$version" blog="$CACHE/promql-check/logs/$version.log"
  mkdir -p "$src" "$(dirname "$blog")" && : >"$blog"
  printf 'module dsync.local/promqlcheck\n\ngo 1.26.0\n' >"$src/go.mod"
  cat >"$src/main.go" <<'GO'
// Command promql-check parses PromQL expressions, one JSON string per line on stdin, with Prometheus' own
// parser; prints each error and exits 1 if any expression is invalid.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/prometheus/prometheus/promql/parser"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	p := parser.NewParser(parser.Options{})
	bad := 0
	for n := 1; in.Scan(); n++ {
		var expr string
		if err := json.Unmarshal(in.Bytes(), &expr); err != nil {
			fmt.Printf("line %d: not a JSON string: %v\n", n, err)
			bad++
			continue
		}
		if _, err := p.ParseExpr(expr); err != nil {
			fmt.Printf("line %d: %s\n  %v\n", n, expr, err)
			bad++
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}
GO
  (cd "$src" && go get "github.com/prometheus/prometheus@$version" >>"$blog" 2>&1 && go mod tidy >>"$blog" 2>&1) ||
    { tail -n 20 "$blog" >&2; die "resolving github.com/prometheus/prometheus@$version failed"; }
  log "building promql-check (prometheus $version) into $out"
  mkdir -p "$out.tmp"
  (cd "$src" && go_build "promql-check $version" "$out.tmp/promql-check" "$blog" -ldflags="-s -w" .)
  finish "$out" promql-check "promql-check (prometheus $version)"
}

# A Go command of a module, built from a wrapper module pinned to that module's version (its go.mod rules).
build_go_command() { # <tool> <module> <version> <package>
  local tool="$1" module="$2" version="$3" package="$4" out src blog
  out=$(dir_of "$tool")
  src="$CACHE/$tool/src/$version" blog="$CACHE/$tool/logs/$version.log"
  mkdir -p "$src" "$(dirname "$blog")" && : >"$blog"
  printf 'module dsync.local/%swrapper\n\ngo 1.26.0\n' "$tool" >"$src/go.mod"
  (cd "$src" && go get "$module@$version" >>"$blog" 2>&1) || { tail -n 20 "$blog" >&2; die "go get $module@$version failed"; }
  log "building $tool $version into $out"
  mkdir -p "$out.tmp"
  (cd "$src" && go_build "$tool $version" "$out.tmp/$tool" "$blog" -ldflags="-s -w" "$package")
  finish "$out" "$tool" "$tool $version"
}

finish() { # <out> <binary> <what>
  local out="$1"
  { echo "$3"; go version; date -u +%Y-%m-%dT%H:%M:%SZ; } >"$out.tmp/.complete"
  built "$out.tmp" "$2" || die "built $3 does not run"
  rm -rf "$out" && mv "$out.tmp" "$out"
  log "done: $out/$2"
}

cmd_build() {
  command -v go >/dev/null || die "go (>= 1.26) is required to build helm and kubectl"
  mkdir -p "$CACHE/helm"
  exec 9>"$CACHE/helm/.build.lock"
  flock -n 9 || { log "another build holds $CACHE/helm/.build.lock; waiting"; flock 9; }
  export GOMODCACHE="$GO_CACHE_ROOT/mod" GOCACHE="$GO_CACHE_ROOT/build"
  export GOFLAGS="-trimpath -buildvcs=false -mod=mod" CGO_ENABLED=0 GOWORK=off
  local tool
  for tool in helm3 helm4 kubectl promql-check registry cosign; do
    local d
    d=$(dir_of "$tool") || continue
    if built "$d" "$(bin_name "$tool")"; then log "cached: $d"; continue; fi
    case "$tool" in
      helm3) build_helm 3 "$HELM3_VERSION" ;;
      helm4) build_helm 4 "$HELM4_VERSION" ;;
      kubectl) build_kubectl ;;
      promql-check) build_promql_check ;;
      registry) build_go_command registry github.com/distribution/distribution/v3 "$REGISTRY_VERSION" github.com/distribution/distribution/v3/cmd/registry ;;
      cosign) build_go_command cosign github.com/sigstore/cosign/v3 "$COSIGN_VERSION" github.com/sigstore/cosign/v3/cmd/cosign ;;
    esac
  done
}

case "${1:-}" in
  build) cmd_build ;;
  bin)
    d=$(dir_of "${2:?usage: $0 bin helm3|helm4|kubectl|promql-check|registry|cosign}") || { echo "${2} disabled" >&2; exit 1; }
    b="$d/$(bin_name "$2")"
    [[ -x "$b" ]] || { echo "$b (not built; run: bash $0 build)" >&2; exit 1; }
    echo "$b"
    ;;
  *)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
