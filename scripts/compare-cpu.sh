#!/usr/bin/env bash
# compare-cpu.sh OLD NEW: the instructions and L1 data-cache misses two
# streamctl binaries spend on the same apply, counted by valgrind's
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
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
for bin in "$@"; do
	bin=$(realpath "$bin")
	if ! (cd "$work" && rm -rf out .streamctl &&
		GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
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
