#!/usr/bin/env bash
# kstatus' own rules (sigs.k8s.io/cli-utils/pkg/kstatus/status.Compute) as a tiny command, for the tests that
# check what Flux, `helm --wait=watcher` and kstatus-based Argo CD health make of a DirectoryConnection.
#
#   test/k8s/kstatus.sh build     build (or reuse) the command from test/k8s/kstatus/ into the cache
#   test/k8s/kstatus.sh bin       print the command's path; exit 1 if not built yet
#
# The command reads one object as JSON on stdin and prints {"status": "Current|InProgress|Failed|...", "message"}.
#
# Environment:
#   DSYNC_CACHE   cache root (default ~/.cache/dsync); the command goes to <root>/kstatus/<cli-utils version>-<source hash>/
# Needs: go (>= 1.25, module proxy reachable) for `build`.
set -euo pipefail

SRC_DIR="$(cd "$(dirname "$0")/kstatus" && pwd)"
CACHE_ROOT="${DSYNC_CACHE:-${HOME:-/root}/.cache/dsync}/kstatus"
VERSION="$(awk '$1 == "sigs.k8s.io/cli-utils" { print $2 }' "$SRC_DIR/go.mod")"
# The sources are part of the key: an edit of main.go or go.mod builds a new command instead of reusing a stale one.
HASH="$(cat "$SRC_DIR/main.go" "$SRC_DIR/go.mod" "$SRC_DIR/go.sum" | sha256sum | cut -c1-12)"
OUT="$CACHE_ROOT/$VERSION-$HASH"

log() { printf '[kstatus.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SMOKE='{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"smoke"}}'
built() { [[ -f "$OUT/.complete" && -x "$OUT/kstatus" ]] && echo "$SMOKE" | "$OUT/kstatus" | grep -q Current; }

cmd_build() {
  [[ -n "$VERSION" ]] || die "no sigs.k8s.io/cli-utils requirement in $SRC_DIR/go.mod"
  if built; then
    log "cached: $OUT/kstatus (cli-utils $VERSION)"
    return 0
  fi
  command -v go >/dev/null 2>&1 || die "'go' not found on PATH (Go >= 1.25 builds the kstatus command)"
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.build.lock"
  flock 9
  if built; then
    log "cached (built by a concurrent run): $OUT/kstatus"
    return 0
  fi
  local t0=$SECONDS blog="$CACHE_ROOT/build.log"
  export GOMODCACHE="$CACHE_ROOT/go/mod" GOCACHE="$CACHE_ROOT/go/build"
  export GOFLAGS="-trimpath -buildvcs=false -mod=readonly" CGO_ENABLED=0 GOWORK=off
  log "building kstatus (cli-utils $VERSION) into $OUT ($(go version)); log: $blog"
  rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
  (cd "$SRC_DIR" && go build -ldflags='-s -w' -o "$OUT.tmp/kstatus" . >"$blog" 2>&1) ||
    { tail -n 40 "$blog" >&2; die "go build failed (log: $blog)"; }
  printf 'cli-utils %s\n%s\n' "$VERSION" "$(go version)" >"$OUT.tmp/.complete"
  rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
  built || die "the built command does not run: $OUT/kstatus"
  log "built in $((SECONDS - t0))s: $OUT/kstatus"
}

case "${1:-}" in
  build) cmd_build ;;
  bin)
    built || { echo "$OUT/kstatus (not built; run: bash $0 build)" >&2; exit 1; }
    echo "$OUT/kstatus"
    ;;
  *)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
