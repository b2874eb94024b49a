#!/usr/bin/env bash
# Real Redis topologies on loopback, for the test suite (test/run.sh) and for tests that kill their own servers
# (test/support/redis-topology.ts):
#
#   bash test/redis-topology.sh cluster  <dir> [first-port|auto] [--masters N] [--replicas N] [--tls] [--user NAME:PASS]
#   bash test/redis-topology.sh sentinel <dir> [first-port|auto] [--replicas N] [--sentinels N] [--tls] [--user NAME:PASS]
#   bash test/redis-topology.sh stop     <dir>
#
# cluster: N masters (default 3) with R replicas each (default 1), `redis-cli --cluster create`, then waits until
#   every node says cluster_state:ok and every master's replicas confirm a write (WAIT).
# sentinel: a master, N replicas (replicaof; default 1) and 3 Sentinels (--sentinels 0: none, a plain master and
#   replicas) monitoring it as `dsync` (quorum 2, down after 1 s, failover timeout 3 s); waits until the replicas
#   confirm a write and every Sentinel sees them and the other Sentinels.
# --tls: TLS only (`--port 0`, certificates made with openssl in <dir>/tls, replication and cluster bus on TLS;
#   clients need the CA, no client certificate). --user: an ACL user with every right, the default user off
#   (the Sentinels too, which then authenticate to each other and to the data nodes with it).
#
# Ports: consecutive from first-port ("auto": a free run picked in 20000-32767, below Linux's ephemeral range,
# cluster bus ports at +10000). Every server is daemonized with its pidfile, log and files in <dir>/<port>/, so
# none holds the caller's stdout/stderr. <dir>/topology.env describes what was started (KIND, NODES, MASTER,
# REPLICAS, SENTINELS, NAME, TLS_CA, USERNAME, PASSWORD); the last line printed is NODES (cluster) or SENTINELS.
# A start that fails stops what it had started; `stop` sends SIGCONT (a test may have SIGSTOPped one) then
# SIGTERM to every server of <dir>, and SIGKILL to those still alive after 5 s.
set -euo pipefail

HOST=127.0.0.1
SENTINEL_NAME=dsync
die() { printf 'redis-topology.sh: %s\n' "$*" >&2; exit 1; }

usage() { die "usage: redis-topology.sh cluster|sentinel <dir> [first-port|auto] [--masters N] [--replicas N] [--sentinels N] [--tls] [--user NAME:PASS] | stop <dir>"; }

# Every server this directory holds, by pidfile; a pid is signalled only while it is still a redis-server (a
# SIGKILLed node leaves its pidfile behind and the pid may have been reused).
server_pids() {
  local f pid
  for f in "$1"/*/redis.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null) || continue
    grep -qa redis-server "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
  done
  return 0
}

stop_all() {
  local dir=$1 pids pid
  pids=$(server_pids "$dir")
  [ -z "$pids" ] && return 0
  for pid in $pids; do kill -CONT "$pid" 2>/dev/null || true; kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    [ -z "$(server_pids "$dir")" ] && return 0
    sleep 0.1
  done
  for pid in $(server_pids "$dir"); do kill -KILL "$pid" 2>/dev/null || true; done
}

# Topologies started side by side (the cluster and the Sentinel setup of each test run, and CI's runs beside each
# other) would each see the same ports free until their servers bind them: a start holds this lock from its pick
# until its servers answer.
PORTS_LOCK=/tmp/dsync-redis-topology-ports.lock
lock_ports() { exec 9>"$PORTS_LOCK" && flock 9; }
unlock_ports() { flock -u 9; }

# A first port whose run of `count` ports (and their +10000 bus ports when `bus` is 1) can all be bound now.
pick_ports() {
  node -e '
    const net = require("net");
    const [count, bus] = process.argv.slice(1).map(Number);
    const top = bus ? 22767 - count : 32767 - count;
    const bind = (port) => new Promise((ok) => {
      const s = net.createServer().once("error", () => ok(null)).listen(port, "127.0.0.1", () => ok(s));
    });
    (async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const first = 20000 + Math.floor(Math.random() * (top - 20000));
        const ports = Array.from({ length: count }, (_, i) => first + i);
        const held = await Promise.all([...ports, ...(bus ? ports.map((p) => p + 10000) : [])].map(bind));
        held.forEach((s) => s && s.close());
        if (held.every(Boolean)) return console.log(first);
      }
      console.error("no free run of ports found");
      process.exit(1);
    })();' "$1" "$2"
}

make_certs() {
  local tls=$1
  mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=dsync-test-ca -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout "$tls/redis.key" -out "$tls/redis.csr" 2>/dev/null
  # No extendedKeyUsage: the same certificate serves clients' connections and, as a client, replication and
  # the cluster bus (which always asks for a client certificate).
  openssl x509 -req -in "$tls/redis.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n') -out "$tls/redis.crt" 2>/dev/null
}

# The config lines every server shares: where it listens, its files, TLS and the ACL user.
base_conf() {
  local port=$1 home=$2
  printf 'bind %s\nprotected-mode no\ndaemonize yes\ndir %s\npidfile %s/redis.pid\nlogfile %s/redis.log\n' "$HOST" "$home" "$home" "$home"
  if [ -n "$TLS" ]; then
    printf 'port 0\ntls-port %s\ntls-cert-file %s/redis.crt\ntls-key-file %s/redis.key\ntls-ca-cert-file %s/ca.crt\n' "$port" "$TLS" "$TLS" "$TLS"
    printf 'tls-auth-clients no\ntls-replication yes\n'
  else
    printf 'port %s\n' "$port"
  fi
  if [ -n "$USERNAME" ]; then printf 'user default off\nuser %s on >%s ~* &* +@all\n' "$USERNAME" "$PASSWORD"; fi
}

data_conf() {
  # No disk, and a replica's first sync starts at once (diskless sync waits 5 s for more replicas by default).
  printf "save \"\"\nappendonly no\nshutdown-on-sigterm nosave now\nrepl-diskless-sync-delay 0\n"
  if [ -n "$USERNAME" ]; then printf 'masteruser %s\nmasterauth %s\n' "$USERNAME" "$PASSWORD"; fi
}

start_server() {
  local port=$1 extra=$2 home="$DIR/$1"
  mkdir -p "$home"
  { base_conf "$port" "$home"; printf '%s' "$extra"; } >"$home/redis.conf"
  shift 2
  # Without the ports lock's descriptor: a server outliving this script must not hold the lock.
  redis-server "$home/redis.conf" "$@" >/dev/null 9>&- || die "redis-server on port $port did not start: $(tail -5 "$home/redis.log" 2>/dev/null)"
}

cli() {
  local port=$1
  shift
  local auth=()
  [ -n "$TLS" ] && auth+=(--tls --cacert "$TLS/ca.crt")
  [ -n "$USERNAME" ] && auth+=(--user "$USERNAME" --pass "$PASSWORD" --no-auth-warning)
  redis-cli -h "$HOST" -p "$port" "${auth[@]}" "$@"
}

# Polls `check` (a function) for up to 30 s; on timeout names what it waited for.
wait_for() {
  local what=$1
  shift
  for _ in $(seq 1 300); do
    "$@" && return 0
    sleep 0.1
  done
  die "timed out waiting for $what"
}

field() { tr -d '\r' | sed -n "s/^$1://p"; }

# A replica reported online may not stream yet: a master is in sync once its replicas confirm a write (a keyless
# FLUSHALL of the still empty data set, then WAIT on the same connection).
replicated() {
  local port=$1 replicas=$2
  [ "$replicas" = 0 ] && return 0
  [ "$(printf 'FLUSHALL\nWAIT %s 500\n' "$replicas" | cli "$port" 2>/dev/null | tail -1)" -ge "$replicas" ] 2>/dev/null
}

cluster_ready() {
  local port want=$1 replicas=$2
  shift 2
  for port in "$@"; do
    local info
    info=$(cli "$port" cluster info 2>/dev/null) || return 1
    [ "$(field cluster_state <<<"$info")" = ok ] && [ "$(field cluster_known_nodes <<<"$info")" = "$want" ] || return 1
    if [ "$(cli "$port" info replication 2>/dev/null | field role)" = master ]; then replicated "$port" "$replicas" || return 1; fi
  done
}

start_cluster() {
  local first=$1 masters=$2 replicas=$3 count ports=() port
  count=$((masters * (1 + replicas)))
  lock_ports
  [ "$first" = auto ] && first=$(pick_ports "$count" 1)
  for ((port = first; port < first + count; port++)); do ports+=("$port"); done
  for port in "${ports[@]}"; do
    local extra
    extra=$(data_conf; printf 'cluster-enabled yes\ncluster-config-file nodes.conf\ncluster-node-timeout 1000\n')
    # A replica takes over however long its master was gone: tests SIGSTOP masters for a while.
    extra+=$'\ncluster-replica-validity-factor 0\n'
    [ -n "$TLS" ] && extra+=$'tls-cluster yes\n'
    start_server "$port" "$extra"
  done
  for port in "${ports[@]}"; do wait_for "redis-server on $port" cli "$port" ping >/dev/null; done
  unlock_ports
  local addrs=()
  for port in "${ports[@]}"; do addrs+=("$HOST:$port"); done
  cli "${ports[0]}" --cluster create "${addrs[@]}" --cluster-replicas "$replicas" --cluster-yes >"$DIR/create.log" 2>&1 ||
    die "redis-cli --cluster create failed: $(tail -5 "$DIR/create.log")"
  wait_for "cluster_state:ok on every node and every master's replicas in sync" cluster_ready "$count" "$replicas" "${ports[@]}"
  NODES=$(IFS=,; echo "${addrs[*]}")
  describe KIND=cluster "NODES=$NODES"
  echo "$NODES"
}

sentinels_ready() {
  local replicas=$1 others=$2 port info
  shift 2
  for port in "$@"; do
    info=$(cli "$port" sentinel master "$SENTINEL_NAME" 2>/dev/null | paste - -) || return 1
    [ "$(awk '$1 == "num-slaves" { print $2 }' <<<"$info")" -ge "$replicas" ] 2>/dev/null || return 1
    [ "$(awk '$1 == "num-other-sentinels" { print $2 }' <<<"$info")" = "$others" ] || return 1
  done
}

start_sentinel() {
  local first=$1 replicas=$2 count=$3 master replica_addrs=() sentinels=() sentinel_ports=() port
  lock_ports
  [ "$first" = auto ] && first=$(pick_ports $((replicas + 1 + count)) 0)
  master=$first
  start_server "$master" "$(data_conf)"
  for ((port = first + 1; port <= first + replicas; port++)); do
    start_server "$port" "$(data_conf; printf 'replicaof %s %s\n' "$HOST" "$master")"
    replica_addrs+=("$HOST:$port")
  done
  wait_for "the replicas to confirm writes" replicated "$master" "$replicas"
  for ((port = first + replicas + 1; port <= first + replicas + count; port++)); do
    local conf
    conf=$(printf 'sentinel monitor %s %s %s 2\nsentinel down-after-milliseconds %s 1000\nsentinel failover-timeout %s 3000\n' \
      "$SENTINEL_NAME" "$HOST" "$master" "$SENTINEL_NAME" "$SENTINEL_NAME")
    if [ -n "$USERNAME" ]; then
      conf+=$(printf '\nsentinel auth-user %s %s\nsentinel auth-pass %s %s\nsentinel sentinel-user %s\nsentinel sentinel-pass %s' \
        "$SENTINEL_NAME" "$USERNAME" "$SENTINEL_NAME" "$PASSWORD" "$USERNAME" "$PASSWORD")
    fi
    start_server "$port" "$conf"$'\n' --sentinel
    sentinels+=("$HOST:$port")
    sentinel_ports+=("$port")
  done
  for port in "${sentinel_ports[@]}"; do wait_for "Sentinel on $port" cli "$port" ping >/dev/null; done
  unlock_ports
  ((count == 0)) || wait_for "every Sentinel to see the replicas and the other Sentinels" sentinels_ready "$replicas" "$((count - 1))" "${sentinel_ports[@]}"
  SENTINELS=$(IFS=,; echo "${sentinels[*]}")
  describe KIND=sentinel "MASTER=$HOST:$master" "REPLICAS=$(IFS=,; echo "${replica_addrs[*]}")" "SENTINELS=$SENTINELS" "NAME=$SENTINEL_NAME"
  echo "$SENTINELS"
}

describe() {
  {
    printf '%s\n' "$@"
    printf 'TLS_CA=%s\nUSERNAME=%s\nPASSWORD=%s\n' "${TLS:+$TLS/ca.crt}" "$USERNAME" "$PASSWORD"
  } >"$DIR/topology.env"
}

[ "$#" -ge 2 ] || usage
command=$1 DIR=$2
shift 2
if [ "$command" = stop ]; then
  stop_all "$DIR"
  exit 0
fi
FIRST=auto
if [ "$#" -gt 0 ] && [[ "$1" != --* ]]; then FIRST=$1; shift; fi
MASTERS=3 REPLICAS=1 SENTINEL_COUNT=3 TLS='' USERNAME='' PASSWORD=''
while [ "$#" -gt 0 ]; do
  case "$1" in
    --masters) MASTERS=$2; shift 2 ;;
    --replicas) REPLICAS=$2; shift 2 ;;
    --sentinels) SENTINEL_COUNT=$2; shift 2 ;;
    --tls) TLS=tls; shift ;;
    --user) USERNAME=${2%%:*} PASSWORD=${2#*:}; shift 2 ;;
    *) usage ;;
  esac
done
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ -n "$TLS" ]; then TLS="$DIR/tls"; make_certs "$TLS"; fi
trap 'status=$?; [ "$status" = 0 ] || stop_all "$DIR"' EXIT
case "$command" in
  cluster) start_cluster "$FIRST" "$MASTERS" "$REPLICAS" ;;
  sentinel) start_sentinel "$FIRST" "$REPLICAS" "$SENTINEL_COUNT" ;;
  *) usage ;;
esac
