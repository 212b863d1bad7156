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
	want := []providers.PartitionSnapshot{{ID: "a.jsonl", Latest: 1}, {ID: "b.jsonl", Latest: 4}}
	if len(snap.Partitions) != 2 || snap.Partitions[0] != want[0] || snap.Partitions[1] != want[1] {
		t.Fatalf("snapshot %+v, want %+v", snap.Partitions, want)
	}
	got, err := read(t, s, "b.jsonl", 1, 4)
	if err != nil || strings.Join(got, " ") != `{"n":2}@1 {"n":4}@3` {
		t.Fatalf("read [1,4): %v %v (blank lines count as offsets but yield nothing; CR is trimmed)", got, err)
	}
	// The incomplete line becomes available once it ends.
	f, _ := os.OpenFile(filepath.Join(dir, "logs/b.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("}\n")
	f.Close()
	got, err = read(t, s, "b.jsonl", 4, 5)
	if err != nil || len(got) != 1 || got[0] != `{"n":5}@4` {
		t.Fatalf("read the completed line: %v %v", got, err)
	}
	// A file that shrank below the range is data loss, naming the file.
	write("logs/b.jsonl", "{\"n\":1}\n")
	_, err = read(t, s, "b.jsonl", 0, 3)
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "b.jsonl") {
		t.Fatalf("shrunk file: %v", err)
	}
	os.Remove(filepath.Join(dir, "logs/a.jsonl"))
	_, err = read(t, s, "logs/a.jsonl", 0, 1)
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "vanished") {
		t.Fatalf("vanished file: %v", err)
	}
}

func TestInputFormats(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.csv"), []byte("id,name,score,ok,zip\n1,\"Doe, Jane\",2.5,true,007\n2,,-1e3,false,\"x\"\"y\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("hello \"world\"\n\ttab\n"), 0o644)
	collect := func(s *Source, p string, start, end int64) []string {
		var out []string
		if err := s.Read(context.Background(), p, start, end, func(r *providers.Record) error {
			out = append(out, string(r.Value))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	csvSrc := &Source{Dir: dir, Pattern: "*.csv", Format: FormatCSV}
	got := collect(csvSrc, "in.csv", 0, 3)
	want := []string{
		`{"id":1,"name":"Doe, Jane","score":2.5,"ok":true,"zip":"007"}`,
		`{"id":2,"name":null,"score":-1e3,"ok":false,"zip":"x\"y"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("csv:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A range after the header still knows the field names.
	if got := collect(&Source{Dir: dir, Pattern: "*.csv", Format: FormatCSV}, "in.csv", 2, 3); len(got) != 1 || got[0] != want[1] {
		t.Errorf("csv from offset 2: %v", got)
	}
	lines := collect(&Source{Dir: dir, Pattern: "*.txt", Format: FormatLines}, "in.txt", 0, 2)
	if strings.Join(lines, "\n") != `{"line":"hello \"world\""}`+"\n"+`{"line":"\ttab"}` {
		t.Errorf("lines: %v", lines)
	}
}

// TestFilesPartitionNames: a file's name is its path relative to the
// pattern's root, the same whichever path reaches the configuration
// directory; names an older streamctl gave (relative to the configuration
// directory as the command saw it, or absolute) are mapped to the current
// ones, and read.
func TestFilesPartitionNames(t *testing.T) {
	base := t.TempDir()
	data := filepath.Join(base, "data", "eu")
	conf := filepath.Join(base, "conf")
	os.MkdirAll(data, 0o755)
	os.MkdirAll(conf, 0o755)
	os.WriteFile(filepath.Join(data, "a.jsonl"), []byte("{\"n\":0}\n{\"n\":1}\n"), 0o644)
	link := filepath.Join(base, "x", "y", "link")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(base, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, pattern, id string
	}{
		{"relative pattern", conf, "../data/*/*.jsonl", "eu/a.jsonl"},
		{"relative pattern, directory reached by a link", filepath.Join(link, "conf"), "../data/*/*.jsonl", "eu/a.jsonl"},
		{"absolute pattern", conf, filepath.Join(data, "*.jsonl"), "a.jsonl"},
		{"absolute pattern, directory reached by a link", filepath.Join(link, "conf"), filepath.Join(data, "*.jsonl"), "a.jsonl"},
		{"a file, no glob", conf, "../data/eu/a.jsonl", "a.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Source{Dir: tc.dir, Pattern: tc.pattern}
			snap, err := s.Snapshot(context.Background())
			if err != nil || len(snap.Partitions) != 1 || snap.Partitions[0].ID != tc.id {
				t.Fatalf("snapshot %+v %v, want the one file named %s", snap.Partitions, err, tc.id)
			}
			// The names older streamctl gave the file, from either path.
			for _, old := range []string{"../data/eu/a.jsonl", "../../../../data/eu/a.jsonl", filepath.ToSlash(filepath.Join(data, "a.jsonl"))} {
				renamed := s.RenamedPartitions(snap, []string{old, tc.id})
				if len(renamed) != 1 || renamed[old] != tc.id {
					t.Errorf("RenamedPartitions(%s) = %v, want it mapped to %s only", old, renamed, tc.id)
				}
				got, err := read(t, s, old, 1, 2)
				if err != nil || len(got) != 1 || got[0] != `{"n":1}@1` {
					t.Errorf("read [1, 2) of %s: %v %v", old, got, err)
				}
			}
			if renamed := s.RenamedPartitions(snap, []string{"gone/b.jsonl"}); len(renamed) != 0 {
				t.Errorf("a name no file ends with was mapped: %v", renamed)
			}
		})
	}
}
