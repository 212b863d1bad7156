package files

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

func read(t *testing.T, s *Source, p string, start, end int64) ([]string, error) {
	var out []string
	err := s.Read(context.Background(), p, start, end, func(r *providers.Record) error {
		out = append(out, strings.TrimSpace(string(r.Value))+"@"+string(rune('0'+r.Offset)))
		return nil
	})
	return out, err
}

func TestFilesSource(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("logs/b.jsonl", "{\"n\":1}\n{\"n\":2}\r\n\n{\"n\":4}\n{\"n\":5") // last line incomplete
	write("logs/a.jsonl", "{\"n\":0}\n")
	write("logs/skip.txt", "x\n")
	s := &Source{Dir: dir, Pattern: "logs/*.jsonl"}
	snap, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []providers.PartitionSnapshot{{ID: "logs/a.jsonl", Latest: 1}, {ID: "logs/b.jsonl", Latest: 4}}
	if len(snap.Partitions) != 2 || snap.Partitions[0] != want[0] || snap.Partitions[1] != want[1] {
		t.Fatalf("snapshot %+v, want %+v", snap.Partitions, want)
	}
	got, err := read(t, s, "logs/b.jsonl", 1, 4)
	if err != nil || strings.Join(got, " ") != `{"n":2}@1 {"n":4}@3` {
		t.Fatalf("read [1,4): %v %v (blank lines count as offsets but yield nothing; CR is trimmed)", got, err)
	}
	// The incomplete line becomes available once it ends.
	f, _ := os.OpenFile(filepath.Join(dir, "logs/b.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("}\n")
	f.Close()
	got, err = read(t, s, "logs/b.jsonl", 4, 5)
	if err != nil || len(got) != 1 || got[0] != `{"n":5}@4` {
		t.Fatalf("read the completed line: %v %v", got, err)
	}
	// A file that shrank below the range is data loss, naming the file.
	write("logs/b.jsonl", "{\"n\":1}\n")
	_, err = read(t, s, "logs/b.jsonl", 0, 3)
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "logs/b.jsonl") {
		t.Fatalf("shrunk file: %v", err)
	}
	os.Remove(filepath.Join(dir, "logs/a.jsonl"))
	_, err = read(t, s, "logs/a.jsonl", 0, 1)
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "vanished") {
		t.Fatalf("vanished file: %v", err)
	}
}
