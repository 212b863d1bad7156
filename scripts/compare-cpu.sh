#!/usr/bin/env bash
# compare-cpu.sh [-kafka] OLD NEW: the instructions and L1 data-cache misses
# two streamctl binaries spend on the same apply, counted by valgrind's
# cachegrind (apt install valgrind).
#
# On a shared host, timings mislead: the same apply's CPU time moves by 30%
# from one minute to the next, and two runs at the same time on the two CPUs
# still differ by up to 20%. Counted instructions repeat within 1%, which shows
# a change of a few percent in the record path. They are not time (a cache
# miss costs more than an instruction, and valgrind hides SHA and AVX
# extensions, so sha256 and zstd take other code paths), so confirm a change
# with internal/bench/parquet before believing its size.
#
# The apply is 200,000 generate records (4 partitions, payload_bytes = 64)
# to local Parquet ZSTD partitioned by country, with GOMAXPROCS=1 so that
# goroutines do not spin. Build the binaries with `go build -o`, for two
# commits from two worktrees.
#
# -kafka applies BenchmarkKafka's sink (internal/e2e/kafka_bench_test.go) to
# 300,000 of its records, produced once by kcat (snappy, keyed over 3
# partitions) into a kfake broker built from this checkout, with GOGC=off as
# well: the collections of a Kafka read follow fetch timing and move the
# count by 4%, where without them it repeats within 0.1%. Changes to
# allocation show in the default variant, or in CPU time.
set -euo pipefail
kafka=
if [ "${1:-}" = -kafka ]; then
	kafka=1
	shift
fi
work=$(mktemp -d)
broker=
trap 'if [ -n "$broker" ]; then kill "$broker"; fi; rm -rf "$work"' EXIT
run_env=(GOMAXPROCS=1)

if [ -n "$kafka" ]; then
	command -v kcat >/dev/null || { echo "-kafka needs kcat (apt install kcat)" >&2; exit 1; }
	(cd "$(dirname "$0")/.." && go build -o "$work/kfake" ./internal/testenv/kfake)
	port=$((20000 + RANDOM % 30000))
	"$work/kfake" -port "$port" -partitions 3 -topics bench >"$work/kfake.out" 2>"$work/kfake.log" &
	broker=$!
	for _ in $(seq 100); do
		grep -qs ready "$work/kfake.out" && break
		kill -0 "$broker" 2>/dev/null || { cat "$work/kfake.log" >&2; exit 1; }
		sleep 0.1
	done
	awk 'BEGIN {
		split("DE FR US JP BR", c, " ")
		for (i = 0; i < 300000; i++)
			printf "%d:{\"id\":%d,\"country\":\"%s\",\"amount\":%d.%02d,\"note\":\"order %d of the benchmark stream\"}\n",
				i, i, c[i % 5 + 1], i % 1000, i % 100, i
	}' | kcat -P -q -b "127.0.0.1:$port" -t bench -K: -z snappy -X partitioner=consistent
	run_env+=(GOGC=off)
	cat >"$work/main.hcl" <<HCL
source "kafka" "bench" {
  brokers = ["127.0.0.1:$port"]
  topic   = "bench"
}

sink "bench" {
  source = source.kafka.bench
  format = "parquet"
  column "id" { type = "int64" }
  column "country" { type = "string" }
  column "amount" { type = "double" }
  column "note" { type = "string" }
  batch {
    max_records = 100000
  }
  destination "local" "out" {
    path = "out"
  }
}
HCL
else
	cat >"$work/main.hcl" <<'HCL'
source "generate" "g" {
  partitions            = 4
  records_per_partition = 50000
  payload_bytes         = 64
}

sink "lake" {
  source       = source.generate.g
  format       = "parquet"
  partition_by = ["country"]
  column "id" { type = "int64" }
  column "partition" { type = "int32" }
  column "offset" { type = "int64" }
  column "ts" { type = "timestamp" }
  column "customer_id" { type = "int64" }
  column "country" { type = "string" }
  column "amount" { type = "double" }
  column "note" { type = "string" }
  destination "local" "out" {
    path = "out"
  }
}
HCL
fi
for bin in "$@"; do
	bin=$(realpath "$bin")
	if ! (cd "$work" && rm -rf out .streamctl &&
		env "${run_env[@]}" valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
			"$bin" apply -auto-approve -no-color >"$work/out.log" 2>"$work/log"); then
		echo "$bin: apply failed:" >&2
		cat "$work/out.log" "$work/log" >&2
		exit 1
	fi
	instr=$(awk '/I *refs:/ { gsub(",", "", $4); print $4 }' "$work/log")
	d1=$(awk '/D1 *misses:/ { gsub(",", "", $4); print $4 }' "$work/log")
	if [ -z "$instr" ] || [ -z "$d1" ]; then
		echo "$bin: no counts in valgrind's output:" >&2
		cat "$work/log" >&2
		exit 1
	fi
	printf '%-40s %15d instructions %12d D1 misses\n' "$bin" "$instr" "$d1"
done
