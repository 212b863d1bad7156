#!/usr/bin/env bash
# make bench: throughput of streamctl beside the raw speed of the libraries
# underneath, each pair measured in the same run. Benchmarks, not timed tests:
# nothing here passes or fails on a number.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/bin:$PWD/.tools/node/node_modules/.bin:$PATH"

section() { printf '\n== %s\n' "$*"; }

# Everything is kept in a log, from which the summary at the end takes the
# ratios the throughput goals are stated in.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { "$@" 2>&1 | tee -a "$log"; }

section "apply end to end: generate → local JSONL, 1 and 3 destinations, beside a plain buffered loop"
run go run ./internal/bench

section "record path: generate-like records → Parquet zstd, streamctl's pipeline beside parquet-go writing the same rows from memory"
run go test -run '^$' -bench 'BenchmarkRecordPath' -benchtime 3x -count 3 ./internal/pipeline/

section "peak memory of one batch (bytes/op) as the batch grows"
run go test -run '^$' -bench 'BenchmarkBatchMemory' -benchtime 1x ./internal/pipeline/

section "Kafka (kfake) → local JSONL and Parquet, beside a plain franz-go consumer"
run go test -run '^$' -bench 'BenchmarkKafka$' -benchtime 3x ./internal/e2e/

section "Avro topic framed for a schema registry (kfake) → local Parquet, beside a plain franz-go consumer decoding with hamba/avro"
run go test -run '^$' -bench 'BenchmarkKafkaAvro' -benchtime 3x ./internal/e2e/

section "generate → S3 (versitygw) and Azure (Azurite), Parquet zstd and JSONL, beside plain uploads of the same files"
run go test -run '^$' -bench 'ApplyS3|ApplyAzure' -benchtime 3x ./internal/e2e/

section "one batch over 10,000 partition folders, Parquet zstd, local and S3: peak RSS"
run go test -run '^$' -bench 'ManyFolders' -benchtime 1x ./internal/e2e/

section "Iceberg: the same batches into a local Parquet destination, without and with its table"
run go test -run '^$' -bench 'BenchmarkIceberg' -benchtime 3x ./internal/e2e/

section "Delta: the same batches into a local Parquet destination, without and with its table"
run go test -run '^$' -bench 'BenchmarkDelta' -benchtime 3x ./internal/e2e/

section "compaction: a day of minute batches (1,440 Parquet files) read with DuckDB before and after, and the compaction against DuckDB rewriting the same rows"
run go test -run '^$' -bench 'BenchmarkCompaction' -benchtime 1x ./internal/e2e/

section "a long-lived sink: state size and plan time after 100,000 batches"
run go run ./internal/bench/reconcile

section "JSONL → Parquet zstd by country: streamctl vs DuckDB vs raw parquet-go"
run go run ./internal/bench/parquet

section "start-up and size: CPU of streamctl version and validate, an apply with nothing to do, the binary's size"
# /usr/bin/time counts in hundredths of a second, so each figure is one loop
# of $reps runs divided by $reps (the loop's shell adds a few µs a run), the
# median of 5 loops.
work=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$work"' EXIT
go build -tags grpcnotrace -o "$work/streamctl" .
go build -tags grpcnotrace -trimpath -ldflags='-s -w' -o "$work/streamctl-stripped" .
cp -r examples/quickstart "$work/quickstart"
rm -rf "$work/quickstart/.streamctl" "$work/quickstart/out"
"$work/streamctl" -chdir="$work/quickstart" apply -auto-approve > /dev/null
reps=20
# per_run WHAT ARGS...: prints "startup WHAT cpu-ms X wall-ms Y" (medians).
per_run() {
	what=$1
	shift
	for _ in 1 2 3 4 5; do
		/usr/bin/time -f '%U %S %e' sh -c 'for i in $(seq '"$reps"'); do "$@" > /dev/null || exit 1; done' sh "$@" 2>&1 >/dev/null | tail -1
	done > "$work/loops"
	cpu=$(awk -v n="$reps" '{ print ($1 + $2) * 1000 / n }' "$work/loops" | sort -n | sed -n 3p)
	wall=$(awk -v n="$reps" '{ print $3 * 1000 / n }' "$work/loops" | sort -n | sed -n 3p)
	printf 'startup %s cpu-ms %.1f wall-ms %.1f\n' "$what" "$cpu" "$wall"
}
run per_run version "$work/streamctl" version
run per_run validate "$work/streamctl" -chdir="$work/quickstart" validate
run per_run apply-nothing-to-do "$work/streamctl" -chdir="$work/quickstart" apply -auto-approve
run awk -v a="$(wc -c < "$work/streamctl")" -v b="$(wc -c < "$work/streamctl-stripped")" \
	'BEGIN { printf "binary-size MB %.1f stripped-MB %.1f\n", a / 1e6, b / 1e6 }'

section "summary: the ratios of the throughput goals, from the runs above"
# metric BENCH NAME: the value before the unit NAME on the benchmark's line.
metric() { awk -v b="$1" -v m="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == m) { print $i; exit } }' "$log"; }
consumer=$(metric 'BenchmarkKafka/franz-go-consumer' records/s)
kafka_parquet=$(metric 'BenchmarkKafka/streamctl-parquet' records/s)
avro_consumer=$(metric 'BenchmarkKafkaAvro/franz-go-hamba' records/s)
avro_parquet=$(metric 'BenchmarkKafkaAvro/streamctl-parquet' records/s)
# The "vs raw" column, last on the row of the 10,000-record batches.
small=$(awk '/apply → 1 destination, max_records 10,000/ { print $NF; exit }' "$log")
{
	printf 'path\tratio\tgoal\n'
	printf 'generate → S3 JSONL, vs the same apply to a local folder\t%s\t≥ 0.8\n' "$(metric 'BenchmarkApplyS3/jsonl' vs-local)"
	printf 'generate → S3 Parquet, vs local\t%s\t≥ 0.9\n' "$(metric 'BenchmarkApplyS3/parquet' vs-local)"
	printf 'generate → Azure JSONL, vs local\t%s\t≥ 0.6\n' "$(metric 'BenchmarkApplyAzure/jsonl' vs-local)"
	printf 'generate → Azure Parquet, vs local\t%s\t-\n' "$(metric 'BenchmarkApplyAzure/parquet' vs-local)"
	printf 'Kafka → local Parquet, vs a plain franz-go consumer\t%s\t≥ 0.8\n' \
		"$(awk -v a="$kafka_parquet" -v c="$consumer" 'BEGIN { if (c > 0) printf "%.2f", a / c }')"
	printf 'Avro topic → local Parquet, vs a franz-go consumer decoding with hamba/avro\t%s\t≥ 0.6\n' \
		"$(awk -v a="$avro_parquet" -v c="$avro_consumer" 'BEGIN { if (c > 0) printf "%.2f", a / c }')"
	printf 'batches of 10,000 records, vs the raw loop\t%s\t≥ 0.6\n' "$small"
	printf 'batches of 10,000 records, vs batches of 1,000,000\t%s\t-\n' \
		"$(awk '/^batches of 10,000 records vs batches of 1,000,000:/ { print $NF; exit }' "$log")"
	printf 'generate → S3 / Azure JSONL, vs encoding locally then a plain upload\t%s / %s\t-\n' \
		"$(metric 'BenchmarkApplyS3/jsonl' vs-serial)" "$(metric 'BenchmarkApplyAzure/jsonl' vs-serial)"
	printf 'peak RSS of one batch over 10,000 folders, local / S3 (MB)\t%s / %s\t≤ 256\n' \
		"$(metric 'BenchmarkManyFolders/local' peak-RSS-MB)" "$(metric 'BenchmarkManyFolders/s3' peak-RSS-MB)"
	printf 'Iceberg table destination, vs the same Parquet destination without\t%s\t≥ 0.9\n' "$(metric 'BenchmarkIceberg' vs-parquet)"
	printf 'Delta table destination, vs the same Parquet destination without\t%s\t≥ 0.9\n' "$(metric 'BenchmarkDelta' vs-parquet)"
	printf 'a day of minute batches: files / DuckDB read ms, before → after compaction\t%s / %s → %s / %s\t-\n' \
		"$(metric 'BenchmarkCompaction' files-before)" "$(metric 'BenchmarkCompaction' read-ms-before)" \
		"$(metric 'BenchmarkCompaction' files-after)" "$(metric 'BenchmarkCompaction' read-ms-after)"
	printf 'compaction (apply) vs DuckDB rewriting the same rows (ms)\t%s / %s\t-\n' \
		"$(metric 'BenchmarkCompaction' compact-apply-ms)" "$(metric 'BenchmarkCompaction' duckdb-rewrite-ms)"
	printf 'bytes the store moves per committed byte, S3 / Azure (JSONL)\t%s / %s\t1.0\n' \
		"$(metric 'BenchmarkApplyS3/jsonl' moved/committed)" "$(metric 'BenchmarkApplyAzure/jsonl' moved/committed)"
	startup() { awk -v w="$1" -v m="$2" '$1 == "startup" && $2 == w { for (i = 3; i < NF; i++) if ($i == m) { print $(i+1); exit } }' "$log"; }
	printf 'start-up CPU of streamctl version / validate of the quickstart (ms)\t%s / %s\t≤ 15\n' "$(startup version cpu-ms)" "$(startup validate cpu-ms)"
	printf 'apply with nothing to do (quickstart): CPU / wall time (ms)\t%s / %s\t≤ 50 CPU\n' \
		"$(startup apply-nothing-to-do cpu-ms)" "$(startup apply-nothing-to-do wall-ms)"
	printf 'binary size, go build / stripped -trimpath -s -w (MB)\t%s\t-\n' \
		"$(awk '$1 == "binary-size" { print $3 " / " $5; exit }' "$log")"
} | column -t -s "$(printf '\t')"
