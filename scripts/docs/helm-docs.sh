#!/usr/bin/env bash
# helm-docs, which writes the chart-values reference page from the comments of charts/dsync/values.yaml, built
# from the Go module proxy into the cache (no binary downloads reach these machines). Cached and idempotent,
# like test/k8s/helm.sh.
#
#   scripts/docs/helm-docs.sh build     build (or reuse) helm-docs in the cache
#   scripts/docs/helm-docs.sh bin       print its path; exit 1 if not built yet
#
# Environment:
#   DSYNC_CACHE               cache root (default ~/.cache/dsync); the binary goes to <root>/helm-docs/<version>/
#   DSYNC_HELM_DOCS_VERSION   default v1.14.2
#   DSYNC_K8S_CACHE           where the Go module cache is shared with the other Go tools (default <root>/k8s)
# Needs: go (>= 1.22, module proxy reachable) for `build`.
set -euo pipefail

CACHE="${DSYNC_CACHE:-${HOME:-/root}/.cache/dsync}"
VERSION="${DSYNC_HELM_DOCS_VERSION:-v1.14.2}"
OUT="$CACHE/helm-docs/$VERSION"
GO_CACHE_ROOT="${DSYNC_K8S_CACHE:-$CACHE/k8s}/go"

log() { printf '[helm-docs.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

built() { [[ -f "$OUT/.complete" && -x "$OUT/helm-docs" ]] && "$OUT/helm-docs" --version >/dev/null 2>&1; }

cmd_build() {
  if built; then
    log "cached: $OUT/helm-docs"
    return 0
  fi
  command -v go >/dev/null 2>&1 || die "'go' not found on PATH (Go >= 1.22 builds helm-docs)"
  mkdir -p "$CACHE/helm-docs"
  exec 9>"$CACHE/helm-docs/.build.lock"
  flock 9
  if built; then
    log "cached (built by a concurrent run): $OUT/helm-docs"
    return 0
  fi
  local t0=$SECONDS blog="$CACHE/helm-docs/build-$VERSION.log"
  export GOMODCACHE="$GO_CACHE_ROOT/mod" GOCACHE="$GO_CACHE_ROOT/build"
  export GOFLAGS="-trimpath -buildvcs=false" CGO_ENABLED=0 GOWORK=off
  log "building helm-docs $VERSION into $OUT ($(go version)); log: $blog"
  rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
  GOBIN="$OUT.tmp" go install -ldflags="-s -w -X main.version=${VERSION#v}" "github.com/norwoodj/helm-docs/cmd/helm-docs@$VERSION" >"$blog" 2>&1 ||
    { tail -n 40 "$blog" >&2; die "go install failed (log: $blog)"; }
  printf 'helm-docs %s\n%s\n' "$VERSION" "$(go version)" >"$OUT.tmp/.complete"
  rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
  built || die "the built helm-docs does not run: $OUT/helm-docs"
  log "built in $((SECONDS - t0))s: $OUT/helm-docs"
}

case "${1:-}" in
  build) cmd_build ;;
  bin)
    built || { echo "$OUT/helm-docs (not built; run: bash $0 build)" >&2; exit 1; }
    echo "$OUT/helm-docs"
    ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
