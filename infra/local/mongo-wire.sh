#!/usr/bin/env bash
# Local MongoDB-wire server on 127.0.0.1: FerretDB v1 (Go module github.com/FerretDB/FerretDB v1.24.2, the latest
# 1.24 patch the Go module proxy serves) embedded in the small program in infra/local/ferretdb/, with the SQLite
# handler (pure Go, no cgo), so neither MongoDB nor PostgreSQL is needed. The binary is built through the Go module
# proxy into infra/local/.cache/bin/ferretdb-embedded, again only when its sources changed; the data dir is fresh on
# every start.
#
# FerretDB v1 limits (what code tested against it must not rely on): no multi-document transactions, no change
# streams, no replica set / oplog, a subset of the aggregation pipeline, of query operators and of index options
# (unique and compound indexes work), SQLite-handler-specific limits on nesting/large documents. MongoDB's behaviour
# is the reference; FerretDB can be more or less permissive in corner cases (e.g. error codes and messages).
#
#   infra/local/mongo-wire.sh start    start (no-op when already running); prints `export MONGO_URL=...` on stdout
#   infra/local/mongo-wire.sh stop     SIGTERM, SIGKILL after MONGO_STOP_TIMEOUT (default 15 s)
#   infra/local/mongo-wire.sh status   exit 0 when running, 3 when not
#   infra/local/mongo-wire.sh env      the export line when running, nothing otherwise
#   infra/local/mongo-wire.sh build    build the binary only (skipped when up to date)
#   infra/local/mongo-wire.sh logs     tail the server log
#
# Environment: MONGO_PORT (27017), MONGO_START_TIMEOUT (30 s), FERRETDB_LOG_LEVEL (info), FERRETDB_PPROF (off; host:port
# serves Go's net/http/pprof, to profile the server under a suite), GO (go on PATH),
# ENGINES_INSTANCE_DIR (.cache: where data, the log and the pid file go).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_lib.sh"

PORT="${MONGO_PORT:-27017}"
START_TIMEOUT="${MONGO_START_TIMEOUT:-30}"
STOP_TIMEOUT="${MONGO_STOP_TIMEOUT:-15}"
LOG_LEVEL="${FERRETDB_LOG_LEVEL:-info}"
GO="${GO:-go}"
# PostgreSQL backend left out: a smaller binary and a faster build.
GO_TAGS="ferretdb_no_postgresql"

SRC="$LOCAL_DIR/ferretdb"
BIN_DIR="$CACHE_DIR/bin"
BIN="$BIN_DIR/ferretdb-embedded"
BIN_STAMP="$BIN.srchash"
HOME_DIR="$INSTANCE_DIR/mongo"
DATA="$HOME_DIR/data"
LOGFILE="$HOME_DIR/ferretdb.log"
PIDFILE="$HOME_DIR/ferretdb.pid"
PORTFILE="$HOME_DIR/ferretdb.port"
PATTERN="$BIN -listen"

export_line() { printf 'export MONGO_URL=mongodb://127.0.0.1:%s/\n' "$1"; }

src_hash() {
  printf '%s|%s|%s\n' "$(hash_files "$SRC/main.go" "$SRC/go.mod" "$SRC/go.sum")" "$("$GO" env GOVERSION)" "$GO_TAGS" |
    sha256sum | cut -d' ' -f1
}

cmd_build() {
  command -v "$GO" >/dev/null || die "mongo-wire: Go ($GO) not found; it builds FerretDB from the Go module proxy"
  local want t0
  want="$(src_hash)"
  if [[ -x "$BIN" && -f "$BIN_STAMP" && "$(cat "$BIN_STAMP")" == "$want" ]]; then
    return 0
  fi
  t0="$(now)"
  mkdir -p "$BIN_DIR"
  log "mongo-wire: building $BIN (FerretDB $(grep -m1 'github.com/FerretDB/FerretDB ' "$SRC/go.mod" | awk '{print $NF}'), tags $GO_TAGS) ..."
  local build=(env GOFLAGS=-mod=mod CGO_ENABLED=0 "$GO" build -trimpath -tags "$GO_TAGS" -o "$BIN.tmp" .)
  if ! (cd "$SRC" && "${build[@]}" >&2); then
    # Missing go.sum entries and the like: tidy once, then try again.
    log "mongo-wire: build failed; running go mod tidy and retrying"
    (cd "$SRC" && GOFLAGS=-mod=mod "$GO" mod tidy >&2 && "${build[@]}" >&2) || die "mongo-wire: go build failed"
    want="$(src_hash)"
  fi
  mv "$BIN.tmp" "$BIN"
  printf '%s\n' "$want" >"$BIN_STAMP"
  log "mongo-wire: built in $(elapsed "$t0") s"
}

# ping PORT: the mongodb driver's ping, through the repo's node_modules. 0 ok, 1 failed, 2 driver not available.
ping_mongo() {
  command -v node >/dev/null || return 2
  [[ -d "$REPO_DIR/node_modules/mongodb" ]] || return 2
  (cd "$REPO_DIR" && MONGO_PING_URL="mongodb://127.0.0.1:$1/" timeout 20 node -e '
    const { MongoClient } = require("mongodb");
    const c = new MongoClient(process.env.MONGO_PING_URL, { serverSelectionTimeoutMS: 5000 });
    c.connect()
      .then(() => c.db("admin").command({ ping: 1 }))
      .then(async (r) => { await c.close(); process.exit(r.ok === 1 ? 0 : 1); })
      .catch((e) => { console.error(String(e)); process.exit(1); });
  ') >/dev/null 2>&1
}

cmd_start() {
  local pid t0
  if pid="$(pid_alive "$PIDFILE" "$PATTERN")"; then
    local running_port
    running_port="$(cat "$PORTFILE" 2>/dev/null || echo "$PORT")"
    log "mongo-wire: already running (pid $pid) on 127.0.0.1:$running_port"
    export_line "$running_port"
    return 0
  fi
  t0="$(now)"
  port_open "$PORT" && die "mongo-wire: 127.0.0.1:$PORT is already in use by another process (set MONGO_PORT)"
  cmd_build

  rm -rf "$DATA"
  mkdir -p "$DATA"
  log "mongo-wire: starting FerretDB (SQLite handler, data in $DATA) on 127.0.0.1:$PORT"
  # setsid: its own session, so the server outlives the calling shell; it execs in place, so $! is its pid.
  setsid "$BIN" -listen "127.0.0.1:$PORT" -dir "$DATA" -log-level "$LOG_LEVEL" ${FERRETDB_PPROF:+-pprof "$FERRETDB_PPROF"} >"$LOGFILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  echo "$PORT" >"$PORTFILE"

  local deadline=$((SECONDS + START_TIMEOUT)) ping_rc
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PIDFILE" "$PORTFILE"
      tail -n 30 "$LOGFILE" >&2 || true
      die "mongo-wire: FerretDB exited during startup (log: $LOGFILE)"
    fi
    if port_open "$PORT"; then
      ping_rc=0
      ping_mongo "$PORT" || ping_rc=$?
      if ((ping_rc == 0)); then
        log "mongo-wire: ping ok (node mongodb driver)"
        break
      elif ((ping_rc == 2)); then
        log "mongo-wire: port open (node's mongodb driver not found in $REPO_DIR/node_modules: ping skipped)"
        break
      fi
    fi
    if ((SECONDS >= deadline)); then
      tail -n 30 "$LOGFILE" >&2 || true
      stop_pid mongo-wire "$PIDFILE" "$PATTERN" 5
      rm -f "$PORTFILE"
      die "mongo-wire: 127.0.0.1:$PORT not answering a ping within ${START_TIMEOUT}s (log: $LOGFILE)"
    fi
    sleep 0.2
  done
  log "mongo-wire: FerretDB started in $(elapsed "$t0") s (pid $pid); listening on 127.0.0.1:$PORT; log $LOGFILE"
  export_line "$PORT"
}

cmd_stop() {
  stop_pid mongo-wire "$PIDFILE" "$PATTERN" "$STOP_TIMEOUT"
  rm -f "$PORTFILE"
}

cmd_status() {
  local pid
  if pid="$(pid_alive "$PIDFILE" "$PATTERN")"; then
    local p
    p="$(cat "$PORTFILE" 2>/dev/null || echo "$PORT")"
    if port_open "$p"; then
      log "mongo-wire: running (pid $pid) on 127.0.0.1:$p"
    else
      log "mongo-wire: process running (pid $pid) but 127.0.0.1:$p does not accept connections"
    fi
    return 0
  fi
  log "mongo-wire: not running"
  return 3
}

cmd_env() {
  if pid_alive "$PIDFILE" "$PATTERN" >/dev/null; then
    export_line "$(cat "$PORTFILE" 2>/dev/null || echo "$PORT")"
  fi
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop && cmd_start ;;
  status) cmd_status ;;
  env) cmd_env ;;
  build) cmd_build ;;
  logs) tail -n "${2:-100}" "$LOGFILE" ;;
  *)
    echo "usage: $0 start|stop|restart|status|env|build|logs [lines]" >&2
    exit 2
    ;;
esac
