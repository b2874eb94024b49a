#!/usr/bin/env bash
# Deletes the kind cluster deploy/kind/up.sh created (and everything in it). Needs kind.
set -euo pipefail
CLUSTER="${DSYNC_KIND_CLUSTER:-dsync}"
command -v kind >/dev/null || { echo "kind is required" >&2; exit 1; }
kind delete cluster --name "$CLUSTER"
