#!/usr/bin/env bash
# Cross-check with wrk (Debian package `wrk`), PERFORMANCE.md's method: the server pinned to
# core 0, wrk -t2 -c64 pinned to core 1, echo route then single-record creates.
#   swift build -c release --product stratus && Benchmarks/run-wrk.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=$(mktemp -d)
PORT=${PORT:-8282}
taskset -c 0 .build/release/stratus serve --dev --data "$DATA" --port "$PORT" --log-level error >/dev/null &
SERVER=$!
trap 'kill $SERVER; rm -rf "$DATA"' EXIT
sleep 2
CREDS="$DATA/dev-credentials.json"
read -r CONTAINER API WEB < <(python3 -c "import json;c=json.load(open('$CREDS'));print(c['container'],c['apiToken'],c['accounts'][0]['webAuthToken'])")
DB="/database/1/$CONTAINER/development/private"
Q="ckAPIToken=$API&ckWebAuthToken=$WEB"
curl -sf -X POST "http://127.0.0.1:$PORT$DB/zones/modify?$Q" \
  -d '{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Bench"}}}]}' >/dev/null
echo "echo route:"
taskset -c 1 wrk -t2 -c64 -d10s -s Benchmarks/wrk-echo.lua "http://127.0.0.1:$PORT/stratus/v1/echo" | grep -E "Latency|Requests/sec|Non-2xx"
echo "single-record creates:"
CK_PATH="$DB/records/modify?$Q" taskset -c 1 wrk -t2 -c64 -d10s -s Benchmarks/wrk-create.lua "http://127.0.0.1:$PORT/" | grep -E "Latency|Requests/sec|Non-2xx"
echo "records stored: $(python3 -c "import sqlite3;print(sqlite3.connect('$DATA/stratus.sqlite').execute('select count(*) from records').fetchone()[0])")"
