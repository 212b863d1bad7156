#!/usr/bin/env bash
# make bench: throughput of streamctl beside the raw speed of the libraries
# underneath, each pair measured in the same run. Benchmarks, not timed tests:
# nothing here passes or fails on a number.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/bin:$PWD/.tools/node/node_modules/.bin:$PATH"

section() { printf '\n== %s\n' "$*"; }

section "apply end to end: generate → local JSONL, 1 and 3 destinations, beside a plain buffered loop"
go run ./internal/bench

section "record path: generate-like records → Parquet zstd, streamctl's pipeline beside parquet-go writing the same rows from memory"
go test -run '^$' -bench 'BenchmarkRecordPath' -benchtime 3x -count 3 ./internal/pipeline/

section "peak memory of one batch (bytes/op) as the batch grows"
go test -run '^$' -bench 'BenchmarkBatchMemory' -benchtime 1x ./internal/pipeline/

section "Kafka (kfake) → local JSONL and Parquet, beside a plain franz-go consumer"
go test -run '^$' -bench 'BenchmarkKafka' -benchtime 3x ./internal/e2e/

section "generate → S3 (versitygw) and Azure (Azurite), Parquet zstd and JSONL, beside plain uploads of the same files"
go test -run '^$' -bench 'ApplyS3|ApplyAzure' -benchtime 3x ./internal/e2e/

section "a long-lived sink: state size and plan time after 100,000 batches"
go run ./internal/bench/reconcile

section "JSONL → Parquet zstd by country: streamctl vs DuckDB vs raw parquet-go (issue 10)"
go run ./internal/bench/parquet
