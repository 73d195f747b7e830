#!/usr/bin/env bash
# Both local engines: Kafka (infra/local/kafka.sh) and the MongoDB-wire server (infra/local/mongo-wire.sh).
#
#   infra/local/engines.sh start    start both (each a no-op when already running); export lines on stdout
#   infra/local/engines.sh stop     stop both
#   infra/local/engines.sh status   status of both; exit 0 only when both run
#   infra/local/engines.sh env      export lines of the engines that are running (nothing for a stopped one)
#
#   eval "$(infra/local/engines.sh start)"    # or, once started:  eval "$(infra/local/engines.sh env)"
#
# Progress and errors go to stderr, only `export ...` lines to stdout.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

case "${1:-}" in
  start)
    # Sequential: on 2 cores a cold Go build and a JVM start do not gain from running side by side, and a
    # failure names its engine. A failing engine fails the whole start (set -e), the other is left running.
    "$DIR/kafka.sh" start
    "$DIR/mongo-wire.sh" start
    ;;
  stop)
    rc=0
    "$DIR/mongo-wire.sh" stop || rc=$?
    "$DIR/kafka.sh" stop || rc=$?
    exit "$rc"
    ;;
  restart)
    "$0" stop
    "$0" start
    ;;
  status)
    rc=0
    "$DIR/kafka.sh" status || rc=$?
    "$DIR/mongo-wire.sh" status || rc=$?
    exit "$rc"
    ;;
  env)
    "$DIR/kafka.sh" env
    "$DIR/mongo-wire.sh" env
    ;;
  *)
    echo "usage: $0 start|stop|restart|status|env" >&2
    exit 2
    ;;
esac
