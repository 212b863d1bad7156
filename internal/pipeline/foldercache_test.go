package pipeline

import (
	"fmt"
	"maps"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/providers"
)

func TestFolderCache(t *testing.T) {
	var c folderCache
	str := func(s string) *format.Value { return &format.Value{Bytes: []byte(s), Token: format.TokString} }
	c.put(0, str("de"), 1)
	c.put(1, str("de"), 2)
	c.put(0, &format.Value{Int: 42, Token: format.TokNumber}, 3)
	c.put(0, &format.Value{Null: true, Token: format.TokNull}, 4)
	for _, tc := range []struct {
		name string
		dest int
		v    *format.Value
		want int32 // -1: a miss
	}{
		{"same value", 0, str("de"), 1},
		{"other destination", 1, str("de"), 2},
		{"no destination", -1, str("de"), -1},
		{"other string", 0, str("fr"), -1},
		{"longer string", 0, str("de-"), -1},
		{"same text, other token", 0, &format.Value{Bytes: []byte("de"), Token: format.TokNumber}, -1},
		{"int", 0, &format.Value{Int: 42, Token: format.TokNumber}, 3},
		{"other int", 0, &format.Value{Int: 43, Token: format.TokNumber}, -1},
		{"null", 0, &format.Value{Null: true, Token: format.TokNull}, 4},
		{"missing", 0, &format.Value{Null: true}, -1},
	} {
		got, ok := c.get(tc.dest, tc.v)
		if !ok {
			got = -1
		}
		if got != tc.want {
			t.Errorf("%s: got target %d, want %d", tc.name, got, tc.want)
		}
	}

	// The cache owns its copy: the caller's buffer is reused for the next record.
	buf := []byte("gb")
	c.put(0, &format.Value{Bytes: buf, Token: format.TokString}, 5)
	copy(buf, "us")
	if got, ok := c.get(0, str("gb")); !ok || got != 5 {
		t.Errorf("gb after its buffer was reused: got %d, %v; want 5", got, ok)
	}
}

// With partition values that collide in the cache and values of every JSON
// type, a Writer puts each record in the files it would put it in without
// the cache.
func TestFolderCacheKeepsFiles(t *testing.T) {
	vals := []string{`null`, `true`, `false`, `0`, `"0"`, `42`, `"42"`, `4.2e1`, `""`, `"de"`, `"../../etc"`, `"a/b"`}
	for i := range 300 {
		vals = append(vals, fmt.Sprintf(`"v%d"`, i), fmt.Sprint(i*7919))
	}
	var recs []string
	for i := range 5000 {
		v := vals[(i*31+i/7)%len(vals)]
		if i%97 == 0 {
			recs = append(recs, fmt.Sprintf(`{"n":%d}`, i)) // k missing
		} else {
			recs = append(recs, fmt.Sprintf(`{"n":%d,"k":%s}`, i, v))
		}
	}
	run := func(cached bool, layout Layout) map[string]string {
		out := newMemOutput()
		w, err := New(layout, 7, []int{0, 1}, out)
		if err != nil {
			t.Fatal(err)
		}
		if w.folders == nil {
			t.Fatal("a sink partitioned by one field has no folder cache")
		}
		if !cached {
			w.folders = nil
		}
		for i, r := range recs {
			if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: []byte(r)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for d, fs := range out.files {
			for rel, f := range fs {
				files[fmt.Sprint(d, " ", rel)] = f.buf.String()
			}
		}
		return files
	}
	for _, layout := range []Layout{
		{Format: "jsonl", PartitionBy: []string{"k"}},
		{Format: "jsonl", PartitionBy: []string{"k"}, RouteBy: "n", Destinations: []string{"a", "b"}},
	} {
		want, got := run(false, layout), run(true, layout)
		if len(want) < 300 {
			t.Fatalf("only %d files: the test needs values that collide in the cache", len(want))
		}
		if !maps.Equal(got, want) {
			t.Errorf("route_by %q: the files differ with the cache (%d files, %d without)", layout.RouteBy, len(got), len(want))
		}
	}
}
