package engine

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/state"
)

// ManifestVersion is the format version of batch manifests.
const ManifestVersion = 1

// Manifest is a destination's commit record of one batch, written create-only
// to "_streamctl/<sink>/<batch>.json". Its presence is the destination's commit
// point; readers that want exactly-once reads list only the files manifests
// name, as Spark readers honour _spark_metadata.
type Manifest struct {
	FormatVersion int           `json:"format_version"`
	Sink          string        `json:"sink"`
	Destination   string        `json:"destination"`
	Batch         int64         `json:"batch"`
	Source        string        `json:"source"`
	Ranges        []state.Range `json:"ranges"`
	Files         []FileEntry   `json:"files"`
	Records       int64         `json:"records"`
	Rejected      int64         `json:"rejected,omitempty"`
	Bytes         int64         `json:"bytes"`
	Committed     time.Time     `json:"committed"`
	Version       string        `json:"streamctl_version"`
}

// FileEntry is one committed file, relative to the destination's root.
type FileEntry struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Records int64  `json:"records"`
	SHA256  string `json:"sha256"`
}

// Layout of a destination's control files.
const (
	TemporaryDir = "_temporary"
	MetadataDir  = "_streamctl"
)

// ManifestKey is where the manifest of batch lands.
func ManifestKey(sink string, batch int64) string {
	return path.Join(MetadataDir, sink, strconv.FormatInt(batch, 10)+".json")
}

// TemporaryPrefix is where batch is staged.
func TemporaryPrefix(batch int64) string {
	return TemporaryDir + "/" + strconv.FormatInt(batch, 10) + "/"
}

// parseBatchKey reads N from "<dir>/N.json" or "<dir>/N/…".
func parseBatchKey(rest string, json bool) (int64, bool) {
	if json {
		if !strings.HasSuffix(rest, ".json") || strings.Contains(rest, "/") {
			return 0, false
		}
		rest = strings.TrimSuffix(rest, ".json")
	} else {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return 0, false
		}
		rest = rest[:i]
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != rest {
		return 0, false
	}
	return n, true
}

func encodeManifest(m *Manifest) []byte {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode manifest: %v", err))
	}
	return append(data, '\n')
}

// DecodeManifest parses a manifest.
func DecodeManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m.FormatVersion < 1 || m.FormatVersion > ManifestVersion {
		return nil, fmt.Errorf("unsupported manifest format version %d", m.FormatVersion)
	}
	return &m, nil
}

// sameBatch reports whether two manifests commit the same data: same ranges and
// byte-identical files. Only the commit time and version may differ.
func sameBatch(a, b *Manifest) bool {
	if a.Batch != b.Batch || a.Sink != b.Sink || len(a.Ranges) != len(b.Ranges) || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Ranges {
		if a.Ranges[i] != b.Ranges[i] {
			return false
		}
	}
	for i := range a.Files {
		if a.Files[i] != b.Files[i] {
			return false
		}
	}
	return true
}

// sameRanges reports whether a manifest covers exactly the ranges.
func sameRanges(m *Manifest, ranges []state.Range) bool {
	if len(m.Ranges) != len(ranges) {
		return false
	}
	for i := range ranges {
		if m.Ranges[i] != ranges[i] {
			return false
		}
	}
	return true
}
