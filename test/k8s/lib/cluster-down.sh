# shellcheck shell=bash
# test/k8s/cluster.sh, sourced: stop what up started and put the machine back (`down`).

stop_pid() { # <name> [grace seconds]
  local pid
  pid=$(pid_of "$1")
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((${2:-10} * 10))); do
    kill -0 "$pid" 2>/dev/null || return 0
    # a zombie (its parent, up, has exited; pid 1 reaps it in its own time) is gone
    [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == Z ]] && return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# Kills every process of a pod (the kubepods cgroups) and every shim of this containerd.
kill_pods() {
  local f p
  for f in /sys/fs/cgroup/*/kubepods; do
    [[ -d "$f" ]] || continue
    # (a cgroup may vanish while being read: its processes are gone then)
    for p in $(find "$f" -name cgroup.procs -exec cat {} + 2>/dev/null || true); do kill -KILL "$p" 2>/dev/null || true; done
  done
  for p in $(pids_matching "containerd-shim.*-address $SOCK"); do kill -KILL "$p" 2>/dev/null || true; done
}

pids_matching() { # <regex>: pids whose command line matches
  local f p
  for f in /proc/[0-9]*/cmdline; do
    p=${f#/proc/}
    p=${p%/cmdline}
    [[ "$p" == "$$" ]] && continue
    tr '\0' ' ' 2>/dev/null <"$f" | grep -q -- "$1" && echo "$p"
  done
  return 0
}

# The last sweep: whatever still names the state directory in its command line (a component whose pid file was
# lost, or a start that failed half-way) is this cluster's.
kill_state_processes() {
  local p left
  for p in $(pids_matching "$STATE/"); do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 50); do
    left=$(pids_matching "$STATE/")
    [[ -z "$left" ]] && return 0
    sleep 0.2
  done
  for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
}

remove_kubepods_cgroups() {
  local f
  for f in /sys/fs/cgroup/*/kubepods; do
    [[ -d "$f" ]] && find "$f" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
}

unmount_state() { # every mount under STATE, deepest first
  local m
  awk -v s="$STATE/" '{ if (index($5 "/", s) == 1) print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}

# What stays outside STATE when pods are killed rather than torn down (neither place is configurable in containerd
# 1.6): libcni's cache of each sandbox's results in /var/lib/cni/results, and the socket of each sandbox's shim in
# /run/containerd/s, named by the sha256 of <containerd socket>/<namespace>/<sandbox id>.
forget_sandboxes() {
  local id
  for id in $(ls "$STATE/containerd/root/io.containerd.grpc.v1.cri/sandboxes" 2>/dev/null); do
    rm -f /var/lib/cni/results/*-"$id"-* "/run/containerd/s/$(printf '%s' "$SOCK/k8s.io/$id" | sha256sum | cut -d' ' -f1)"
  done
  rmdir /var/lib/cni/results /var/lib/cni /run/containerd/s /run/containerd 2>/dev/null || true
}

cmd_down() {
  local t0=$SECONDS p t v
  for p in redis coredns kubelet kube-proxy kube-scheduler kube-controller-manager; do stop_pid "$p" 10; done
  kill_pods
  stop_pid containerd 10
  stop_pid nsfwd 2
  [[ -d "$STATE/apiserver" ]] && { bash "$HERE/apiserver.sh" stop "$STATE/apiserver" >/dev/null 2>&1 || true; }
  for p in etcd kube-apiserver; do stop_pid "$p" 10; done
  kill_state_processes
  kill_pods
  remove_kubepods_cgroups
  unmount_state
  forget_sandboxes
  [[ -e "$NETNS_PATH" ]] && ip netns del "$NETNS"
  if [[ -f "$STATE/kernel-tunables" ]]; then
    while read -r t v; do echo "$v" >"/proc/sys/$t" || true; done <"$STATE/kernel-tunables"
  fi
  # the container log links the kubelet makes in /var/log/containers, into our pod logs
  find /var/log/containers -maxdepth 1 -type l -lname "$STATE/*" -delete 2>/dev/null || true
  rm -rf "$STATE"
  log "down in $((SECONDS - t0)) s"
}
