package e2e

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
)

// decimalConfig lands the generated amounts (two fractional digits, as
// text) as decimals: into Parquet files and an Iceberg table, into JSONL,
// and, for comparison, the records as they are.
const decimalConfig = `
source "generate" "orders" {
  partitions            = 3
  records_per_partition = 2000
}

sink "orders" {
  source = source.generate.orders
  format = "parquet"

  column "id" {
    type     = "int64"
    nullable = false
  }
  column "amount" {
    type = "decimal(12, 2)"
  }
  column "amount_wide" {
    type = "decimal(30,4)"
    from = "amount"
  }

  batch {
    max_records = 2500
  }

  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
  destination "local" "folder" {
    path = "out/folder"
  }
}

sink "orders_jsonl" {
  source = source.generate.orders
  format = "jsonl"

  column "id" {
    type = "int64"
  }
  column "amount" {
    type = "decimal(12,2)"
  }

  destination "local" "jsonl" {
    path = "out/jsonl"
  }
}

sink "raw" {
  source = source.generate.orders
  format = "jsonl"

  destination "local" "raw" {
    path = "out/raw"
  }
}
`

// TestDecimalColumnsEndToEnd: the binary lands decimal columns; DuckDB
// reads the Parquet files as DECIMAL with every amount equal to the
// record's text, the JSONL with the same literals, and iceberg-go's scan of
// the table reads the same amounts, each record once.
func TestDecimalColumnsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, decimalConfig)
	plan := mustRun(t, dir, 0, nil, "plan", "-no-color")
	mustContain(t, "the first plan", plan.stdout, "+ write the columns:", "amount      decimal(12,2)", "amount_wide decimal(30,4)", "id          int64, not nullable")
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	// The records' own text, the reference.
	raw := `(SELECT regexp_extract(line, '"id":([0-9]+)', 1)::BIGINT AS id, regexp_extract(line, '"amount":([0-9.]+)', 1) AS amount` +
		` FROM read_csv('out/raw/*.jsonl', columns={'line':'VARCHAR'}, header=false, delim=chr(1), quote='', escape=''))`
	jsonl := `(SELECT regexp_extract(line, '"id":([0-9]+)', 1)::BIGINT AS id, regexp_extract(line, '"amount":([^,}]+)', 1) AS amount` +
		` FROM read_csv('out/jsonl/*.jsonl', columns={'line':'VARCHAR'}, header=false, delim=chr(1), quote='', escape=''))`
	parquet := `read_parquet('out/folder/*.parquet')`

	got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id), typeof(any_value(amount)), typeof(any_value(amount_wide)), sum(amount)::VARCHAR FROM `+parquet))
	var total big.Int
	for _, r := range duckdb(t, dir, "SELECT amount FROM "+raw) {
		n, ok := new(big.Int).SetString(strings.Replace(fmt.Sprint(r[0]), ".", "", 1), 10)
		if !ok {
			t.Fatalf("a generated amount %v", r[0])
		}
		total.Add(&total, n)
	}
	sum := decimal128.FromBigInt(&total).ToString(2)
	if want := fmt.Sprint([][]any{{"6000", "6000", "DECIMAL(12,2)", "DECIMAL(30,4)", sum}}); got != want {
		t.Errorf("DuckDB over the Parquet files: %s, want %s", got, want)
	}
	mismatch := `SELECT count(*) FROM ` + raw + ` r LEFT JOIN ` + parquet + ` p ON p.id = r.id LEFT JOIN ` + jsonl + ` j ON j.id = r.id` +
		` WHERE p.amount IS NULL OR p.amount::VARCHAR <> r.amount OR p.amount_wide <> r.amount::DECIMAL(30,4) OR j.amount IS NULL OR j.amount <> r.amount`
	if got := fmt.Sprint(duckdb(t, dir, mismatch)); got != "[[0]]" {
		t.Errorf("records whose amounts differ from their text in the Parquet files or the JSONL: %s, want none", got)
	}

	// iceberg-go's scan of the table: each id once, the same amounts.
	ctx := context.Background()
	tb, err := iceberg.Open(ctx, iceberg.Config{
		Namespace: []string{"lake"}, Table: "orders",
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")),
		Columns: []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)}, {Name: "amount", Type: "decimal(12,2)"},
			{Name: "amount_wide", Type: "decimal(30,4)"}},
	})
	if err != nil {
		t.Fatalf("open the table: %v", err)
	}
	defer tb.Close()
	seen := map[int64]int{}
	var scanned, scannedWide big.Int
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		ids := rec.Column(rec.Schema().FieldIndices("id")[0]).(*array.Int64)
		amounts := rec.Column(rec.Schema().FieldIndices("amount")[0]).(*array.Decimal128)
		wide := rec.Column(rec.Schema().FieldIndices("amount_wide")[0]).(*array.Decimal128)
		if s := amounts.DataType().(*arrow.Decimal128Type); s.Precision != 12 || s.Scale != 2 {
			t.Errorf("the table's amount is %s", s)
		}
		for i := range ids.Len() {
			seen[ids.Value(i)]++
			scanned.Add(&scanned, amounts.Value(i).BigInt())
			scannedWide.Add(&scannedWide, wide.Value(i).BigInt())
		}
	})
	checkIDsOnce(t, "iceberg-go's scan", seen, expectedIDs(3, 2000))
	if got := decimal128.FromBigInt(&scanned).ToString(2); got != sum {
		t.Errorf("iceberg-go scans a sum of amounts %s, want %s", got, sum)
	}
	if got := decimal128.FromBigInt(&scannedWide).ToString(4); got != decimal128.FromBigInt(new(big.Int).Mul(&total, big.NewInt(100))).ToString(4) {
		t.Errorf("iceberg-go scans a sum of amount_wide %s, want %s", got, sum)
	}
}
