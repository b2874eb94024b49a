#!/usr/bin/env bash
# A local dsync on kind: builds the image, creates a kind cluster, applies the CRD, installs Redis and the chart,
# applies the sample DirectoryConnection and prints the SCIM endpoint and token. Needs docker, kind, kubectl and
# helm. The CI machines have no Docker, so this is not run by the tests; test/e2e/chart-on-kubelet.test.ts runs the
# same steps on test/k8s/cluster.sh's cluster (image from the Dockerfile, CRD, Redis, chart, a DirectoryConnection
# Ready, helm test).
#
#   deploy/kind/up.sh            # cluster "dsync" (DSYNC_KIND_CLUSTER to change)
#   deploy/kind/down.sh          # delete it
set -euo pipefail
cd "$(dirname "$0")/../.."

CLUSTER="${DSYNC_KIND_CLUSTER:-dsync}"
NS=dsync-system
IMAGE=dsync:dev

for tool in docker kind kubectl helm; do
  command -v "$tool" >/dev/null || { echo "$tool is required" >&2; exit 1; }
done

echo "== image"
docker build -t "$IMAGE" .   # the repository's Dockerfile

echo "== cluster"
kind get clusters | grep -qx "$CLUSTER" || kind create cluster --name "$CLUSTER" --wait 120s
kind load docker-image "$IMAGE" --name "$CLUSTER"
kubectl config use-context "kind-$CLUSTER" >/dev/null
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f -

echo "== CRD (applied before the chart: docs/operating/helm.md)"
kubectl apply --server-side -f crds/dsync.io_directoryconnections.yaml

echo "== redis (a single unauthenticated instance: for trying dsync out, not for production)"
kubectl -n "$NS" apply -f - <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: { name: redis }
spec:
  selector: { matchLabels: { app: redis } }
  template:
    metadata: { labels: { app: redis } }
    spec:
      containers:
        - name: redis
          image: redis:7-alpine
          args: [--save, "", --appendonly, "no"]
          ports: [{ containerPort: 6379 }]
---
apiVersion: v1
kind: Service
metadata: { name: redis }
spec:
  selector: { app: redis }
  ports: [{ port: 6379 }]
YAML

echo "== API key"
if ! kubectl -n "$NS" get secret dsync-api-keys >/dev/null 2>&1; then
  kubectl -n "$NS" create secret generic dsync-api-keys --from-literal=keys="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
fi

echo "== chart"
helm upgrade --install dsync charts/dsync --namespace "$NS" --wait --timeout 180s \
  --set image.registry=,image.repository=dsync,image.tag=dev,image.pullPolicy=Never \
  --set externalUrl=http://localhost:5225 \
  --set redis.url="redis://redis.$NS.svc:6379" \
  --set apiKeys.existingSecret=dsync-api-keys

echo "== sample DirectoryConnection"
kubectl apply -f deploy/samples/webhook-secret.yaml -f deploy/samples/directoryconnection.yaml
kubectl wait directoryconnection/acme-okta --for=condition=Ready --timeout=60s
helm test dsync --namespace "$NS"
kubectl get directoryconnections -o wide
echo
echo "SCIM endpoint: $(kubectl get secret acme-okta-scim -o jsonpath='{.data.endpoint}' | base64 -d)"
echo "SCIM token:    $(kubectl get secret acme-okta-scim -o jsonpath='{.data.token}' | base64 -d)"
echo
echo "Reach the service with: kubectl -n $NS port-forward svc/dsync 5225:80"
