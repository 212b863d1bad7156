#!/usr/bin/env bash
# make bench: throughput of streamctl beside the raw speed of the libraries
# underneath, each pair measured in the same run. Benchmarks, not timed tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/bin:$PWD/.tools/node/node_modules/.bin:$PATH"

echo "== apply end to end: generate → local JSONL (issue 2)"
go run ./internal/bench "$@"
