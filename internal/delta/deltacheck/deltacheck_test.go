package deltacheck

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
)

const (
	protocol = `{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}`
	metaData = `{"metaData":{"id":"af23c9d7-fff1-4a5a-a2c8-55c59bd782aa","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"c\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["c"],"configuration":{}}}`
	add      = `{"add":{"path":"c=a%253Ab/f.parquet","partitionValues":{"c":"a:b"},"size":4,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":7}"}}`
	txn      = `{"txn":{"appId":"orders","version":1}}`
)

// withStats is add with other stats (JSON escaped as in the log).
func withStats(stats string) string {
	return strings.Replace(add, `{\"numRecords\":7}`, stats, 1)
}

// TestReplayFindsBrokenRules: the checker refuses each kind of broken log
// entry it is there to catch, and accepts a valid log.
func TestReplayFindsBrokenRules(t *testing.T) {
	for _, c := range []struct {
		name    string
		version []string // the log's entries, from version 0; "" leaves a version out
		want    string   // "" for a valid log
	}{
		{"valid", []string{protocol + "\n" + metaData, add + "\n" + txn}, ""},
		{"no protocol in version 0", []string{metaData, add}, "version 0 needs protocol and metaData"},
		{"a gap", []string{protocol + "\n" + metaData, "", add}, "not contiguous"},
		{"two keys in an action", []string{protocol + "\n" + metaData, `{"add":{},"txn":{}}`}, "an action is an object with one key"},
		{"add without size", []string{protocol + "\n" + metaData, strings.Replace(add, `"size":4,`, "", 1)}, "size is missing"},
		{"add with an absolute path", []string{protocol + "\n" + metaData, strings.Replace(add, `"path":"c=a%253Ab/f.parquet"`, `"path":"s3://b/f.parquet"`, 1)}, "is not a relative URI"},
		{"path not encoded", []string{protocol + "\n" + metaData, strings.Replace(add, `%253A`, `%3A`, 1)}, "the snapshot's file c=a:b/f.parquet"},
		{"missing partition value", []string{protocol + "\n" + metaData, strings.Replace(add, `{"c":"a:b"}`, `{}`, 1)}, "for partition columns"},
		{"stats not JSON", []string{protocol + "\n" + metaData, strings.Replace(add, `{\"numRecords\":7}`, `numRecords=7`, 1)}, "is not a JSON object"},
		{"added twice in a version", []string{protocol + "\n" + metaData, add + "\n" + add}, "is added twice in one version"},
		{"txn without appId", []string{protocol + "\n" + metaData, `{"txn":{"version":1}}`}, "txn needs appId and version"},
		{"valid stats", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"minValues\":{\"id\":-2},\"maxValues\":{\"id\":9},\"nullCount\":{\"id\":1}}`) + "\n" + txn}, ""},
		{"stats of a partition column", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"minValues\":{\"c\":\"a\"}}`)}, `names the partition column "c"`},
		{"stats of no column", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"nullCount\":{\"x\":0}}`)}, `names "x", not a column of the schema`},
		{"a long min as a string", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"minValues\":{\"id\":\"1\"}}`)}, `is not an integer of the type`},
		{"a min above the max", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"minValues\":{\"id\":3},\"maxValues\":{\"id\":2}}`)}, `min 3 above max 2`},
		{"more nulls than records", []string{protocol + "\n" + metaData, withStats(`{\"numRecords\":7,\"nullCount\":{\"id\":8}}`)}, `not a count up to numRecords 7`},
		{"size unlike the file", []string{protocol + "\n" + metaData, strings.Replace(add, `"size":4`, `"size":5`, 1)}, "holds 4 bytes, its add action says 5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			store := mem.New("t")
			if err := providers.Put(ctx, store, "c=a%3Ab/f.parquet", []byte("PAR1")); err != nil {
				t.Fatal(err)
			}
			for v, entry := range c.version {
				if entry == "" {
					continue
				}
				key := fmt.Sprintf("_delta_log/%020d.json", v)
				if err := providers.Put(ctx, store, key, []byte(entry+"\n")); err != nil {
					t.Fatal(err)
				}
			}
			tb, err := Replay(ctx, store)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("a valid log refused: %v", err)
			case c.want == "":
				if len(tb.Files) != 1 || tb.Files[0].Key != "c=a%3Ab/f.parquet" || tb.Files[0].Records != 7 || *tb.Files[0].PartitionValues["c"] != "a:b" || tb.Txns["orders"] != 1 {
					t.Errorf("replayed %+v", tb)
				}
			case err == nil || !strings.Contains(err.Error(), c.want):
				t.Errorf("want an error with %q, got %v", c.want, err)
			}
		})
	}
}
