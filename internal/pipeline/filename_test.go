package pipeline

import "testing"

func TestFileBatchOfShards(t *testing.T) {
	for _, c := range []struct {
		key   string
		shard string
		batch int64
		ok    bool
	}{
		{"country=de/" + FileName("", 12, 3, "jsonl"), "", 12, true},
		{"country=de/" + FileName("s3", 12, 3, "parquet"), "s3", 12, true},
		{FileName("s17", 0, 0, "csv"), "s17", 0, true},
		{"part-s-00000001-00000.jsonl", "", 0, false},
		{"part-sx-00000001-00000.jsonl", "", 0, false},
		{"part-00000001.jsonl", "", 0, false},
	} {
		shard, batch, ok := FileBatch(c.key)
		if shard != c.shard || batch != c.batch || ok != c.ok {
			t.Errorf("FileBatch(%q) = %q, %d, %v; want %q, %d, %v", c.key, shard, batch, ok, c.shard, c.batch, c.ok)
		}
	}
	if got := FileName("s3", 7, 1, "jsonl"); got != "part-s3-00000007-00001.jsonl" {
		t.Errorf("FileName = %s", got)
	}
}
