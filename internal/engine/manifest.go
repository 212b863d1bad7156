package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
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
	// LockID is the lock the batch was committed under (on a remote state
	// the sink's or shard's lease lock, else the state lock), so that who
	// wrote each batch can be read back; "" when applied without a lock.
	LockID string `json:"lock_id,omitempty"`
	// Lineage is the lineage of the state that committed the batch, so that
	// a destination whose owner record is lost still says whose batches it
	// holds; "" in manifests written before it was recorded.
	Lineage string `json:"lineage,omitempty"`
}

// FileEntry is one committed file, relative to the destination's root.
type FileEntry struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Records int64  `json:"records"`
	SHA256  string `json:"sha256"`
	// Footer is the Parquet file's footer (its thrift FileMetaData), kept
	// by staging for a table that records statistics (TableFooters); nil
	// otherwise, and never in the manifest: a table commit reads it only
	// from the batch's staging, and goes without statistics when it has
	// none.
	Footer []byte `json:"-"`
}

// Same reports whether two entries are the same file, as a manifest
// records it (Footer aside).
func (f FileEntry) Same(g FileEntry) bool {
	return f.Path == g.Path && f.Size == g.Size && f.Records == g.Records && f.SHA256 == g.SHA256
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

// DecodeManifest parses a manifest, refusing one that names files streamctl
// never writes (see validateManifest).
func DecodeManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m.FormatVersion < 1 || m.FormatVersion > ManifestVersion {
		return nil, fmt.Errorf("unsupported manifest format version %d", m.FormatVersion)
	}
	if err := validateManifest(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// validateManifest refuses a manifest that could not have been written by
// streamctl: its paths are printed (files), read (verify) and handed to
// readers as the files to read, so a path out of the destination, into its
// control folders or holding terminal escapes must never pass as committed.
func validateManifest(m *Manifest) error {
	if m.Batch < 0 || m.Batch > state.MaxBatch {
		return tampered(fmt.Sprintf("its batch number %d is out of range (0 to %d)", m.Batch, int64(state.MaxBatch)))
	}
	for i, r := range m.Ranges {
		if r.Start < 0 || r.End < r.Start || r.End > state.MaxOffset {
			return tampered(fmt.Sprintf("range %d of partition %q, [%d, %d), is not a range of offsets", i+1, r.Partition, r.Start, r.End))
		}
	}
	if m.Records < 0 || m.Rejected < 0 || m.Bytes < 0 {
		return tampered("it counts a negative number of records or bytes")
	}
	for i, f := range m.Files {
		if err := ValidateFilePath(f.Path); err != nil {
			return tampered(fmt.Sprintf("file %d has the path %s: it %v", i+1, strconv.Quote(f.Path), err))
		}
		if f.Size < 0 || f.Records < 0 {
			return tampered(fmt.Sprintf("file %d (%s) has a negative size or record count", i+1, f.Path))
		}
	}
	return nil
}

func tampered(why string) error {
	return fmt.Errorf("%s: manifests name only files streamctl wrote inside the destination, so this one was edited or is corrupt. Restore it from a copy, or move it away and run streamctl plan to have the batch rewritten", why)
}

// maxFilePath bounds a file path of a manifest: partition folders are at most
// 255 bytes each, and no file system takes paths much longer than 4 KiB.
const maxFilePath = 4096

// ValidateFilePath checks a file path of a manifest: relative to the
// destination, clean, inside it, not in its control folders (rejected
// records aside), and printable.
// The error completes "it … " (said of the path).
func ValidateFilePath(p string) error {
	switch {
	case p == "":
		return errors.New("is empty")
	case len(p) > maxFilePath:
		return fmt.Errorf("is longer than %d bytes", maxFilePath)
	case strings.HasPrefix(p, "/"):
		return errors.New("is absolute")
	}
	for _, r := range p {
		// Partition values are escaped (%XX) for all of these, so no file
		// streamctl wrote has them; '\\' is a separator to Windows readers.
		if r < 0x20 || r == 0x7f || r == '\\' {
			return fmt.Errorf("holds the character %s", strconv.QuoteRune(r))
		}
	}
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "":
			return errors.New("has an empty component")
		case ".", "..":
			return fmt.Errorf("has a %q component, leading out of its folder", part)
		}
	}
	first, _, _ := strings.Cut(p, "/")
	if first == TemporaryDir || first == MetadataDir && !strings.HasPrefix(p, pipeline.RejectedDir+"/") {
		return fmt.Errorf("is in the destination's %s/ folder, which holds no committed files (but the rejects, under %s/)", first, pipeline.RejectedDir)
	}
	return nil
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
		if !a.Files[i].Same(b.Files[i]) {
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

func readManifest(ctx context.Context, s providers.Storage, sink string, batch int64) (*Manifest, error) {
	data, _, err := providers.ReadAll(ctx, s, ManifestKey(sink, batch))
	if err != nil {
		return nil, err
	}
	m, err := DecodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", ManifestKey(sink, batch), err)
	}
	if m.Batch != batch || m.Sink != sink {
		return nil, fmt.Errorf("read manifest %s: it says it commits batch %d of sink %q", ManifestKey(sink, batch), m.Batch, m.Sink)
	}
	return m, nil
}
