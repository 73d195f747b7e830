#!/usr/bin/env bash
# Runs schemathesis (PyPI) against /openapi.json of a running service, once with a session token and once with an
# API key holding every scope: no 5xx, and every answer matches its documented status codes, content types,
# headers and schemas. Needs `npm run build` first and schemathesis on PATH (pip install schemathesis).
# SCHEMATHESIS_REPORT_DIR=<dir> also writes each run's JUnit report there (schemathesis-session.xml, -api-key.xml).
set -euo pipefail
cd "$(dirname "$0")/../.."

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
data=$(mktemp -d)
base="http://127.0.0.1:${port}"
DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=silent PASSWORD_HASH_COST=1024 \
  RATE_LIMIT_PER_CREDENTIAL=100000000 RATE_LIMIT_PER_IP=100000000 node dist/services/main.js &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null && break; sleep 0.1; done

json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s)$1))"; }
token=$(curl -fs -X POST "$base/api/v1/auth/signup" -H 'content-type: application/json' \
  -d '{"email":"schemathesis@example.com","password":"long enough","name":"Schemathesis"}' | json '.session.token')
scopes=$(node -e "const {SCOPES}=require('./dist/services/http/access.js');console.log(JSON.stringify(SCOPES))")
key=$(curl -fs -X POST "$base/api/v1/api-keys" -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d "{\"name\":\"schemathesis\",\"scopes\":$scopes}" | json '.key' || true)

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method
run() {
  echo "== schemathesis with $1"
  local report=()
  if [ -n "${SCHEMATHESIS_REPORT_DIR:-}" ]; then report=(--report junit --report-junit-path "$SCHEMATHESIS_REPORT_DIR/schemathesis-$3.xml"); fi
  schemathesis run "$base/openapi.json" --url "$base/api/v1" -H "Authorization: Bearer $2" "${report[@]}" \
    --checks "$checks" --phases examples,coverage,fuzzing --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" \
    --exclude-path /auth/logout --exclude-path-regex '^/api-keys' --exclude-path-regex '^/oauth/applications' \
    --workers 2 --seed 20261122 --no-color
}
run "a session token" "$token" session
if [ -n "$key" ] && [ "$key" != "undefined" ]; then run "an API key" "$key" api-key; else echo "== no API key could be created: the API-key run is missing" >&2; exit 1; fi
