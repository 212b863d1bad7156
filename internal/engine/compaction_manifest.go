package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// A compaction's manifest, _streamctl/<sink>/compaction-<C>.json, is its
// commit record in the destination: it names the manifests whose files it
// replaces and the files it wrote. Readers take the files of the manifests
// no compaction manifest replaces (liveManifests). The protocol is in
// compaction.go.

// CompactionManifestVersion is the format version of compaction manifests.
const CompactionManifestVersion = 1

// CompactionManifest is a destination's commit record of one compaction.
type CompactionManifest struct {
	FormatVersion int    `json:"format_version"`
	Sink          string `json:"sink"`
	Destination   string `json:"destination"`
	Compaction    int64  `json:"compaction"`
	// FirstBatch and LastBatch bound the batches whose rows its files hold.
	FirstBatch int64 `json:"first_batch"`
	LastBatch  int64 `json:"last_batch"`
	// Replaces names the manifests whose files these replace, as their file
	// names in the sink's manifest folder ("7.json", "compaction-2.json").
	Replaces []string `json:"replaces"`
	// Files are the new files, and the rejects of the replaced manifests,
	// which are not rewritten.
	Files   []FileEntry `json:"files"`
	Records int64       `json:"records"`
	Bytes   int64       `json:"bytes"`
	// Layout is the hash of the output settings its files are written with.
	Layout    string    `json:"layout,omitempty"`
	Committed time.Time `json:"committed"`
	Version   string    `json:"streamctl_version"`
	LockID    string    `json:"lock_id,omitempty"`
	Lineage   string    `json:"lineage,omitempty"`
}

const compactionPrefix = "compaction-"

// CompactionName is the file name of compaction id's manifest in the sink's
// manifest folder.
func CompactionName(id int64) string { return compactionPrefix + strconv.FormatInt(id, 10) + ".json" }

// BatchManifestName is the file name of batch's manifest in the sink's
// manifest folder, as a compaction names it (a manifest gathered into an
// index keeps its name).
func BatchManifestName(batch int64) string { return strconv.FormatInt(batch, 10) + ".json" }

// CompactionKey is where compaction id of sink commits.
func CompactionKey(sink string, id int64) string {
	return path.Join(MetadataDir, sink, CompactionName(id))
}

// compactionTemporary is where compaction id is staged: beside the sink's
// batches, under a name no batch has.
func (s *Sink) compactionTemporary(id int64) string {
	return s.temporaryRoot() + strings.TrimSuffix(CompactionName(id), ".json") + "/"
}

// compactedFileName names the seq-th file of compaction id: never a batch's
// name (pipeline.FileName), so that no batch writes over it, nor a file of
// another compaction.
func compactedFileName(shard string, id int64, seq int, ext string) string {
	return fmt.Sprintf("%s%05d.%s", compactedFilePrefix(shard, id), seq, ext)
}

// compactedFilePrefix is how the names of compaction id's files begin.
func compactedFilePrefix(shard string, id int64) string {
	if shard != "" {
		return fmt.Sprintf("compact-%s-%08d-", shard, id)
	}
	return fmt.Sprintf("compact-%08d-", id)
}

func encodeCompactionManifest(m *CompactionManifest) []byte {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode compaction manifest: %v", err))
	}
	return append(data, '\n')
}

func decodeCompactionManifest(data []byte, sink string, id int64) (*CompactionManifest, error) {
	var m CompactionManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m.FormatVersion < 1 || m.FormatVersion > CompactionManifestVersion {
		return nil, fmt.Errorf("unsupported compaction manifest format version %d", m.FormatVersion)
	}
	if m.Sink != sink || m.Compaction != id {
		return nil, fmt.Errorf("it says it commits compaction %d of sink %q", m.Compaction, m.Sink)
	}
	for i, f := range m.Files {
		if err := ValidateFilePath(f.Path); err != nil {
			return nil, tampered(fmt.Sprintf("file %d has the path %s: it %v", i+1, strconv.Quote(f.Path), err))
		}
	}
	for _, r := range m.Replaces {
		if _, ok := parseManifestName(r); !ok {
			return nil, tampered(fmt.Sprintf("it replaces %s, which names no manifest", strconv.Quote(r)))
		}
	}
	return &m, nil
}

// manifestRef is a manifest named by its file name: a batch's or a
// compaction's.
type manifestRef struct {
	batch      int64 // when compaction is 0
	compaction int64
}

func parseManifestName(name string) (manifestRef, bool) {
	if rest, ok := strings.CutPrefix(name, compactionPrefix); ok {
		n, ok := parseBatchKey(rest, true)
		return manifestRef{compaction: n}, ok && n > 0
	}
	n, ok := parseBatchKey(name, true)
	return manifestRef{batch: n}, ok
}

func readCompactionManifest(ctx context.Context, s providers.Storage, sink string, id int64) (*CompactionManifest, error) {
	data, _, err := providers.ReadAll(ctx, s, CompactionKey(sink, id))
	if err != nil {
		return nil, err
	}
	m, err := decodeCompactionManifest(data, sink, id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", CompactionKey(sink, id), err)
	}
	return m, nil
}

// readCompactions returns the compaction manifests of sink in s, by number.
func readCompactions(ctx context.Context, s providers.Storage, sink string) ([]*CompactionManifest, error) {
	prefix := MetadataDir + "/" + sink + "/" + compactionPrefix
	var ids []int64
	err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		if n, ok := parseBatchKey(info.Key[len(prefix):], true); ok && n > 0 {
			ids = append(ids, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	out := make([]*CompactionManifest, len(ids))
	err = forEach(len(ids), func(i int) error {
		m, err := readCompactionManifest(ctx, s, sink, ids[i])
		out[i] = m
		return err
	})
	return out, err
}

// LiveManifest is a manifest whose files a reader takes: a batch's that no
// compaction replaced, or a compaction's that no later one replaced.
type LiveManifest struct {
	Name string // its file name: "7.json", "compaction-2.json"
	// FirstBatch and LastBatch bound the batches whose rows its files hold
	// (a batch manifest's are its batch).
	FirstBatch, LastBatch int64
	Compaction            int64 // 0 for a batch's
	Files                 []FileEntry
	Records               int64
	Layout                string // a compaction's; "" for a batch's
	Committed             time.Time
}

// liveManifests reads the manifests of sink in s whose files readers take,
// in the order of their batches; batches are the batch manifests, replaced
// or not. A compaction committed while they are read is either wholly seen
// or not at all: the compaction manifests are listed once, after the batch
// manifests, and a manifest is never removed (an indexed one stays in its
// index).
func liveManifests(ctx context.Context, s providers.Storage, sink string) (live []LiveManifest, batches []*Manifest, err error) {
	batches, err = ReadManifests(ctx, s, sink, 0)
	if err != nil {
		return nil, nil, err
	}
	compactions, err := readCompactions(ctx, s, sink)
	if err != nil {
		return nil, nil, err
	}
	return liveOf(batches, compactions), batches, nil
}

// liveOf is liveManifests of the manifests given.
func liveOf(batches []*Manifest, compactions []*CompactionManifest) (live []LiveManifest) {
	replaced := map[string]bool{}
	for _, c := range compactions {
		for _, r := range c.Replaces {
			replaced[r] = true
		}
	}
	for _, m := range batches {
		if name := BatchManifestName(m.Batch); !replaced[name] {
			live = append(live, LiveManifest{Name: name, FirstBatch: m.Batch, LastBatch: m.Batch, Files: m.Files, Records: m.Records, Committed: m.Committed})
		}
	}
	for _, c := range compactions {
		if name := CompactionName(c.Compaction); !replaced[name] {
			live = append(live, LiveManifest{Name: name, FirstBatch: c.FirstBatch, LastBatch: c.LastBatch, Compaction: c.Compaction,
				Files: c.Files, Records: c.Records, Layout: c.Layout, Committed: c.Committed})
		}
	}
	slices.SortStableFunc(live, func(a, b LiveManifest) int {
		return cmp.Or(cmp.Compare(a.FirstBatch, b.FirstBatch), cmp.Compare(a.Compaction, b.Compaction))
	})
	return live
}
