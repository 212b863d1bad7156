package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/state"
)

// hostilePaths are manifest file paths streamctl never writes.
var hostilePaths = map[string]string{
	"":                                      "is empty",
	"../../etc/passwd":                      `".." component`,
	"country=DE/../../x.jsonl":              `".." component`,
	"/etc/passwd":                           "is absolute",
	"./part.jsonl":                          `"." component`,
	"country=DE//part.jsonl":                "empty component",
	"country=DE/":                           "empty component",
	"\x1b[31mred.jsonl":                     `'\x1b'`,
	"part\n.jsonl":                          `'\n'`,
	"part\x7f.jsonl":                        `'\x7f'`,
	`country=DE\part.jsonl`:                 `'\\'`,
	"_streamctl/orders/0.json":              "_streamctl/ folder",
	"_streamctl/_rejected":                  "_streamctl/ folder",
	"_streamctl/_rejected/../orders/0.json": `".." component`,
	"_temporary/0/part.jsonl":               "_temporary/ folder",
	strings.Repeat("a/", 2100):              "longer than",
}

func TestDecodeManifestRefusesHostilePaths(t *testing.T) {
	for p, want := range hostilePaths {
		m := testManifest(3)
		m.Files[0].Path = p
		_, err := DecodeManifest(encodeManifest(m))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "edited or is corrupt") {
			t.Errorf("path %q: want an error saying %s, got %v", p, want, err)
		}
	}
	for _, p := range []string{"part-00000003-00000.jsonl", "country=DE/city=K%C3%B6ln/part.parquet", "v=\u009b/part.jsonl", "_streamctl.jsonl", "a/_temporary/b.jsonl", "_streamctl/_rejected/part-00000003-00000.ndjson"} {
		m := testManifest(3)
		m.Files[0].Path = p
		if _, err := DecodeManifest(encodeManifest(m)); err != nil {
			t.Errorf("path %q streamctl writes: %v", p, err)
		}
	}
}

func TestDecodeManifestRefusesBadNumbers(t *testing.T) {
	for name, edit := range map[string]func(m *Manifest){
		"negative batch":  func(m *Manifest) { m.Batch = -1 },
		"huge batch":      func(m *Manifest) { m.Batch = 1 << 62 },
		"negative size":   func(m *Manifest) { m.Files[0].Size = -1 },
		"negative count":  func(m *Manifest) { m.Records = -1 },
		"inverted range":  func(m *Manifest) { m.Ranges[0] = state.Range{Partition: "0", Start: 10, End: 5} },
		"negative offset": func(m *Manifest) { m.Ranges[0].Start = -1 },
	} {
		m := testManifest(3)
		edit(m)
		if _, err := DecodeManifest(encodeManifest(m)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestReadIndexRefusesHostilePaths: an index is read wherever its batches'
// manifests would be, so its manifests are held to the same rules.
func TestReadIndexRefusesHostilePaths(t *testing.T) {
	ctx := context.Background()
	s := local.New(t.TempDir())
	ix := &ManifestIndex{FormatVersion: IndexVersion, Sink: "orders", Destination: "a", FirstBatch: 0, LastBatch: IndexInterval - 1}
	for id := int64(0); id < 3; id++ {
		ix.Manifests = append(ix.Manifests, testManifest(id))
	}
	ix.Manifests[1].Files[0].Path = "../../../etc/passwd"
	if _, err := s.PutIfAbsent(ctx, IndexKey("orders", 0), encodeIndex(ix)); err != nil {
		t.Fatal(err)
	}
	_, err := ReadManifests(ctx, s, "orders", 0)
	if err == nil || !strings.Contains(err.Error(), IndexKey("orders", 0)) || !strings.Contains(err.Error(), "batch 1") || !strings.Contains(err.Error(), `".." component`) {
		t.Fatalf("want the index, the batch and the path refused, got %v", err)
	}
}
