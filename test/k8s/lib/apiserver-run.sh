# shellcheck shell=bash
# test/k8s/apiserver.sh, sourced: start, restart and stop etcd and kube-apiserver (`start`, `restart-apiserver`, `stop`).

# true if any TCP socket (v4 or v6) uses local port $1; with $2=listen only a listening socket counts
port_in_use() {
  local hex
  hex=$(printf '%04X' "$1")
  awk -v h="$hex" -v l="${2:-}" 'FNR > 1 { n = split($2, a, ":"); if (a[n] == h && (l == "" || $4 == "0A")) { found = 1; exit } }
    END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

PICKED_PORTS=" "
free_port() { # below Linux's ephemeral range (32768+) so outgoing connections don't steal it
  local p
  for _ in $(seq 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
    [[ "$PICKED_PORTS" == *" $p "* ]] && continue
    port_in_use "$p" && continue
    PICKED_PORTS+="$p "
    echo "$p"
    return 0
  done
  die "could not find a free port"
}

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# kill pid $1 if it's still a process whose cmdline contains $2; TERM then KILL after $3 s
stop_pid() {
  local pid="$1" name="$2" grace="${3:-15}" sig="${4:-TERM}"
  pid_alive "$pid" || return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$name" || return 0
  kill "-$sig" "$pid" 2>/dev/null || true
  for _ in $(seq $((grace * 10))); do
    pid_alive "$pid" || return 0
    # a zombie child (only if we are its parent) counts as gone
    [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" == Z ]] && return 0
    sleep 0.1
  done
  log "$name (pid $pid) did not exit after ${grace}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.2
}

tail_logs() {
  local f
  for f in "$@"; do
    [[ -f "$f" ]] || continue
    echo "----- last 40 lines of $f -----" >&2
    tail -n 40 "$f" >&2
  done
}

gen_certs() { # <certdir>
  local c="$1"
  mkdir -p "$c"
  chmod 700 "$c"
  cat >"$c/openssl.cnf" <<EOF
[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[v3_ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign,digitalSignature
subjectKeyIdentifier = hash
[serving]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost,IP:10.0.0.1,${DSYNC_K8S_NODE_IP:+IP:$DSYNC_K8S_NODE_IP,}DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
EOF
  local o=(-config "$c/openssl.cnf")
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$c/ca.key" 2>/dev/null
  openssl req "${o[@]}" -x509 -new -key "$c/ca.key" -subj "/CN=dsync-envtest-ca" -days 3650 \
    -extensions v3_ca -out "$c/ca.crt"
  leaf() { # <name> <subject> <extensions>
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$c/$1.key" 2>/dev/null
    openssl req "${o[@]}" -new -key "$c/$1.key" -subj "$2" -out "$c/$1.csr"
    openssl x509 -req -in "$c/$1.csr" -CA "$c/ca.crt" -CAkey "$c/ca.key" -set_serial "0x$(openssl rand -hex 8)" \
      -days 365 -extfile "$c/openssl.cnf" -extensions "$3" -out "$c/$1.crt" 2>/dev/null
    rm -f "$c/$1.csr"
  }
  leaf apiserver "/CN=kube-apiserver" serving
  leaf admin "/O=system:masters/CN=admin" client
  # service-account token signing keypair
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$c/sa.key" 2>/dev/null
  openssl pkey -in "$c/sa.key" -pubout -out "$c/sa.pub"
  # the kubeconfig's admin authenticates with a static token: the client-cert authenticator verifies the chain
  # on every request (ECDSA, ~8% of the API server's CPU under the operator benchmark), a token is a map lookup
  printf '%s,admin,admin,system:masters\n' "$(openssl rand -hex 32)" >"$c/tokens.csv"
}

write_kubeconfig() { # <dir> <url>
  local c="$1/certs"
  b64() { base64 -w0 <"$1"; }
  : >"$1/kubeconfig"
  chmod 600 "$1/kubeconfig"
  cat >"$1/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: envtest
  cluster:
    server: $2
    certificate-authority-data: $(b64 "$c/ca.crt")
users:
- name: admin
  user:
    token: $(cut -d, -f1 "$c/tokens.csv")
contexts:
- name: envtest
  context:
    cluster: envtest
    user: admin
    namespace: default
current-context: envtest
EOF
}

write_env() { # <dir>
  local d="$1"
  {
    printf 'KUBECONFIG=%q\n' "$d/kubeconfig"
    printf 'APISERVER_URL=%q\n' "https://127.0.0.1:$APISERVER_PORT"
    printf 'APISERVER_PORT=%q\n' "$APISERVER_PORT"
    printf 'APISERVER_PID=%q\n' "$APISERVER_PID"
    printf 'ETCD_URL=%q\n' "http://127.0.0.1:$ETCD_PORT"
    printf 'ETCD_PORT=%q\n' "$ETCD_PORT"
    printf 'ETCD_PEER_PORT=%q\n' "$ETCD_PEER_PORT"
    printf 'ETCD_PID=%q\n' "$ETCD_PID"
    printf 'BIN_DIR=%q\n' "$BIN_DIR"
  } >"$d/env.tmp"
  mv "$d/env.tmp" "$d/env"
}

load_env() { # <dir>
  [[ -f "$1/env" ]] || return 1
  # shellcheck disable=SC1091
  source "$1/env"
}

# Starts etcd; sets ETCD_PID. Returns 2 if the port was taken (caller retries with new ports).
start_etcd() { # <dir>
  local d="$1"
  mkdir -p "$d/etcd-data"
  chmod 700 "$d/etcd-data"
  "$BIN_DIR/etcd" \
    --name=default \
    --data-dir="$d/etcd-data" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="default=http://127.0.0.1:$ETCD_PEER_PORT" \
    --unsafe-no-fsync=true \
    --log-level=warn \
    </dev/null >>"$d/etcd.log" 2>&1 &
  ETCD_PID=$!
  disown "$ETCD_PID"
  for _ in $(seq 300); do
    if ! pid_alive "$ETCD_PID"; then
      grep -q 'address already in use' "$d/etcd.log" && return 2
      tail_logs "$d/etcd.log"
      die "etcd exited during start-up"
    fi
    curl -fsS -m 2 "http://127.0.0.1:$ETCD_PORT/health" 2>/dev/null | grep -q '"health":"true"' && return 0
    sleep 0.1
  done
  tail_logs "$d/etcd.log"
  stop_pid "$ETCD_PID" etcd 5
  die "etcd not healthy after 30s"
}

apiserver_args() { # <dir>
  local d="$1" c="$1/certs"
  if [[ -n "${DSYNC_K8S_NODE_IP:-}" ]]; then
    printf '%s\n' --advertise-address="$DSYNC_K8S_NODE_IP" --bind-address=0.0.0.0 \
      --kubelet-preferred-address-types=InternalIP \
      --kubelet-client-certificate="$c/admin.crt" --kubelet-client-key="$c/admin.key"
  else
    # no controllers mint ServiceAccount tokens, and no endpoint is reachable at the advertised address
    printf '%s\n' --advertise-address=127.0.0.1 --bind-address=127.0.0.1 \
      --disable-admission-plugins=ServiceAccount --endpoint-reconciler-type=none
  fi
  printf '%s\n' \
    --secure-port="$APISERVER_PORT" \
    --cert-dir="$c" \
    --tls-cert-file="$c/apiserver.crt" \
    --tls-private-key-file="$c/apiserver.key" \
    --client-ca-file="$c/ca.crt" \
    --token-auth-file="$c/tokens.csv" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --authorization-mode=RBAC \
    --service-account-issuer="https://127.0.0.1:$APISERVER_PORT" \
    --service-account-key-file="$c/sa.pub" \
    --service-account-signing-key-file="$c/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 \
    --allow-privileged=true \
    --shutdown-watch-termination-grace-period=2s \
    --profiling=false
  # shellcheck disable=SC2086 # split on purpose: one flag per word
  [[ -z "${DSYNC_K8S_APISERVER_ARGS:-}" ]] || printf '%s\n' ${DSYNC_K8S_APISERVER_ARGS}
}

# Starts kube-apiserver and waits for /readyz; sets APISERVER_PID. Returns 2 if the port was taken.
start_apiserver() { # <dir>
  local d="$1" c="$1/certs" t0 code=""
  local -a args
  mapfile -t args < <(apiserver_args "$d")
  echo "===== $(date -u +%Y-%m-%dT%H:%M:%SZ) starting kube-apiserver on port $APISERVER_PORT =====" >>"$d/apiserver.log"
  "$BIN_DIR/kube-apiserver" "${args[@]}" </dev/null >>"$d/apiserver.log" 2>&1 &
  APISERVER_PID=$!
  disown "$APISERVER_PID"
  t0=$SECONDS
  while ((SECONDS - t0 < READY_TIMEOUT)); do
    if ! pid_alive "$APISERVER_PID"; then
      tail -n 20 "$d/apiserver.log" | grep -q 'address already in use' && return 2
      tail_logs "$d/apiserver.log" "$d/etcd.log"
      die "kube-apiserver exited during start-up (log: $d/apiserver.log)"
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' -m 2 --cacert "$c/ca.crt" --cert "$c/admin.crt" --key "$c/admin.key" \
      "https://127.0.0.1:$APISERVER_PORT/readyz" 2>/dev/null || true)
    [[ "$code" == 200 ]] && return 0
    sleep 0.2
  done
  tail_logs "$d/apiserver.log" "$d/etcd.log"
  curl -s -m 2 --cacert "$c/ca.crt" --cert "$c/admin.crt" --key "$c/admin.key" \
    "https://127.0.0.1:$APISERVER_PORT/readyz?verbose" >&2 2>/dev/null || true
  stop_pid "$APISERVER_PID" kube-apiserver 5
  die "kube-apiserver not ready after ${READY_TIMEOUT}s (last /readyz status: ${code:-none}; log: $d/apiserver.log)"
}

cmd_start() {
  local d="${1:?usage: $0 start <dir>}"
  need openssl "apt-get install -y openssl"
  need curl "apt-get install -y curl"
  [[ -x "$BIN_DIR/kube-apiserver" && -x "$BIN_DIR/etcd" ]] ||
    die "kube-apiserver/etcd not found in $BIN_DIR; run: bash $0 build"
  mkdir -p "$d"
  d=$(cd "$d" && pwd)
  if load_env "$d" 2>/dev/null && { pid_alive "${APISERVER_PID:-}" || pid_alive "${ETCD_PID:-}"; }; then
    die "$d already has a running cluster (see $d/env); stop it first"
  fi
  local t0=$SECONDS attempt rc
  ETCD_PID="" APISERVER_PID=""
  # on any failure below, don't leave etcd/kube-apiserver behind
  trap 'rc=$?; if ((rc != 0)); then stop_pid "$APISERVER_PID" kube-apiserver 5 KILL; stop_pid "$ETCD_PID" etcd 5 KILL; rm -rf "$d/etcd-data"; fi' EXIT
  gen_certs "$d/certs"
  : >"$d/etcd.log"
  : >"$d/apiserver.log"
  for attempt in 1 2 3 4 5; do
    ETCD_PORT=$(free_port)
    ETCD_PEER_PORT=$(free_port)
    rc=0
    start_etcd "$d" || rc=$?
    ((rc == 0)) && break
    log "etcd port clash (attempt $attempt), retrying with other ports"
    rm -rf "$d/etcd-data"
  done
  ((rc == 0)) || die "etcd could not bind a port after 5 attempts"
  for attempt in 1 2 3 4 5; do
    APISERVER_PORT=$(free_port)
    rc=0
    start_apiserver "$d" || rc=$?
    ((rc == 0)) && break
    log "kube-apiserver port clash (attempt $attempt), retrying with another port"
  done
  ((rc == 0)) || die "kube-apiserver could not bind a port after 5 attempts"
  write_kubeconfig "$d" "https://127.0.0.1:$APISERVER_PORT"
  write_env "$d"
  log "ready in $((SECONDS - t0))s: https://127.0.0.1:$APISERVER_PORT (apiserver pid $APISERVER_PID, etcd pid $ETCD_PID); KUBECONFIG=$d/kubeconfig"
}

cmd_restart_apiserver() {
  local d="${1:?usage: $0 restart-apiserver <dir> [--hard]}" sig=TERM t0=$SECONDS rc
  [[ "${2:-}" == --hard ]] && sig=KILL
  d=$(cd "$d" && pwd)
  load_env "$d" || die "no $d/env; was the cluster started with '$0 start $d'?"
  pid_alive "$ETCD_PID" || die "etcd (pid $ETCD_PID) is not running"
  stop_pid "$APISERVER_PID" kube-apiserver 30 "$sig"
  for _ in $(seq 100); do
    port_in_use "$APISERVER_PORT" listen || break
    sleep 0.1
  done
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    rc=0
    start_apiserver "$d" || rc=$?
    ((rc == 0)) && break
    log "port $APISERVER_PORT still busy, retrying"
    sleep 1
  done
  ((rc == 0)) || die "could not restart kube-apiserver on port $APISERVER_PORT"
  write_env "$d"
  log "kube-apiserver restarted (SIG$sig) in $((SECONDS - t0))s on port $APISERVER_PORT, pid $APISERVER_PID"
}

cmd_stop() {
  local d="${1:?usage: $0 stop <dir>}"
  [[ -d "$d" ]] || return 0
  d=$(cd "$d" && pwd)
  if load_env "$d"; then
    stop_pid "${APISERVER_PID:-}" kube-apiserver 10
    stop_pid "${ETCD_PID:-}" etcd 10
    log "stopped kube-apiserver (pid ${APISERVER_PID:-?}) and etcd (pid ${ETCD_PID:-?})"
  fi
  rm -rf "$d/etcd-data" "$d/env"
}
