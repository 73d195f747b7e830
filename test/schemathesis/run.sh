#!/usr/bin/env bash
# Runs schemathesis (PyPI) against /openapi.json of a running service, once with a session token and once with an
# API key holding every scope, with every check (`--checks all`): no 5xx, answers as documented (status codes,
# content types, headers, schemas), valid requests accepted and invalid ones refused. hooks.py teaches it the two
# rules the document states only in words (time zone names, dates in order); schemathesis.toml supplies a
# registered OAuth client. Needs `npm run build` first and schemathesis on PATH (pip install schemathesis).
# SCHEMATHESIS_REPORT_DIR=<dir> also writes each run's JUnit report there (schemathesis-session.xml, -api-key.xml).
set -euo pipefail
cd "$(dirname "$0")/../.."

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
data=$(mktemp -d)
base="http://127.0.0.1:${port}"
# Waits are bounded short: a valid case's X-Calendar-Min-Position is one the log has reached (hooks.py; one past its
# end is refused at once), and webhook test deliveries go to made-up hosts that never answer.
# PUBLIC_URL: the addresses the service hands out (feeds) are public ones, as in a deployment; schemathesis sends
# them back as webhook URLs, which may not point at a private address.
DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 PUBLIC_URL=https://calendar.example.com LOG_LEVEL=error PASSWORD_HASH_COST=1024 MIN_POSITION_WAIT_MS=20 WEBHOOK_TIMEOUT_MS=1000 \
  RATE_LIMIT_PER_CREDENTIAL=100000000 RATE_LIMIT_PER_IP=100000000 node dist/services/main.js >"$data/service.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null && break; sleep 0.1; done

json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s)$1))"; }
post() { curl -fs -X POST "$base/api/v1$1" -H "authorization: Bearer ${token:-}" -H 'content-type: application/json' -d "$2"; }
token=$(post /auth/signup '{"email":"schemathesis@example.com","password":"long enough","name":"Schemathesis"}' | json '.session.token')
scopes=$(node -e "const {SCOPES}=require('./dist/services/http/access.js');console.log(JSON.stringify(SCOPES))")
key=$(post /api-keys "{\"name\":\"schemathesis\",\"scopes\":$scopes}" | json '.key')
export SCHEMATHESIS_REDIRECT_URI="https://client.example/callback"
SCHEMATHESIS_CLIENT_ID=$(post /oauth/applications "{\"name\":\"schemathesis\",\"redirectUri\":\"$SCHEMATHESIS_REDIRECT_URI\",\"scopes\":$scopes}" | json '.clientId')
export SCHEMATHESIS_CLIENT_ID

zones="$data/time-zones.txt"
node -e "console.log(['UTC', ...Intl.supportedValuesOf('timeZone')].join('\n'))" > "$zones"
export SCHEMATHESIS_TIME_ZONES="$zones" SCHEMATHESIS_OPENAPI_URL="$base/openapi.json"
export PYTHONPATH="test/schemathesis${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=hooks

# --request-timeout: a generated recurring event lasting centuries takes seconds to check for conflicts, and the
# calls queued behind it wait; slow is not wrong here (speed belongs in `npm run bench`).
# One worker per run, the two runs side by side: schemathesis' threads share CPython 3.11's parser, which races
# ("AST constructor recursion depth mismatch") when two of them describe a strategy at once.
run() {
  local report=()
  if [ -n "${SCHEMATHESIS_REPORT_DIR:-}" ]; then report=(--report junit --report-junit-path "$SCHEMATHESIS_REPORT_DIR/schemathesis-$2.xml"); fi
  schemathesis --config-file test/schemathesis/schemathesis.toml run "$base/openapi.json" --url "$base/api/v1" \
    -H "Authorization: Bearer $1" "${report[@]}" --checks all --phases "$3" \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" --exclude-path /auth/logout --request-timeout 30 \
    --workers 1 --seed "${SCHEMATHESIS_SEED:-20261122}" --no-color >"$data/$2.log" 2>&1
}
if [ -z "$key" ] || [ "$key" = "undefined" ]; then echo "== no API key could be created: the API-key run is missing" >&2; exit 1; fi
failed=0
# The coverage phase (every boundary of every field, three quarters of the time) runs once, with the session token,
# which reaches every operation; the API key's run checks what a key may do with examples and fuzzed cases.
run "$token" session "${SCHEMATHESIS_PHASES:-examples,coverage,fuzzing}" & session=$!
run "$key" api-key "${SCHEMATHESIS_PHASES:-examples,fuzzing}" & api_key=$!
wait "$session" || failed=1
echo "== schemathesis with a session token"; cat "$data/session.log"
wait "$api_key" || failed=1
echo "== schemathesis with an API key"; cat "$data/api-key.log"
# A 5xx is logged with its stack (LOG_LEVEL=error): the last of them, to find the cause.
if [ -s "$data/service.log" ]; then echo "== the service's error log (last 40 lines)"; tail -n 40 "$data/service.log"; fi
exit "$failed"
