# shellcheck shell=bash disable=SC2034 # the variables are used by the scripts that source this file
# Helpers shared by infra/local/*.sh (sourced, not run). Messages go to stderr; stdout is kept for
# `export VAR=...` lines so that `eval "$(infra/local/engines.sh start)"` works.

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$LOCAL_DIR/../.." && pwd)"
CACHE_DIR="$LOCAL_DIR/.cache"
# What one running instance writes (data, config, logs, pid and port files). The built binary and the resolved jars
# stay in CACHE_DIR, shared: a second instance side by side (a test's own engines) sets ENGINES_INSTANCE_DIR and
# other ports.
INSTANCE_DIR="${ENGINES_INSTANCE_DIR:-$CACHE_DIR}"

log() { printf '%s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# pid_alive PIDFILE PATTERN: true (and prints the pid) when the pid in PIDFILE is a live process whose command
# line contains PATTERN (so a recycled pid is not taken for ours). A stale pid file is removed.
pid_alive() {
  local pidfile="$1" pattern="$2" pid
  [[ -f "$pidfile" ]] || return 1
  pid="$(cat "$pidfile" 2>/dev/null)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$pattern"; then
    printf '%s' "$pid"
    return 0
  fi
  rm -f "$pidfile"
  return 1
}

# stop_pid NAME PIDFILE PATTERN TIMEOUT_S: SIGTERM, wait up to TIMEOUT_S, then SIGKILL; removes PIDFILE.
stop_pid() {
  local name="$1" pidfile="$2" pattern="$3" timeout="$4" pid i
  if ! pid="$(pid_alive "$pidfile" "$pattern")"; then
    log "$name: not running"
    return 0
  fi
  log "$name: stopping pid $pid (SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < timeout * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name: still running after ${timeout}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "$pidfile"
  log "$name: stopped"
}

# hash_files FILE...: one sha256 over the given files' contents (and names).
hash_files() {
  local f
  for f in "$@"; do
    printf '%s\n' "$(basename "$f")"
    cat "$f"
  done | sha256sum | cut -d' ' -f1
}
