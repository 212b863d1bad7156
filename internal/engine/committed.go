package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// CommittedFile is one file a destination's manifests commit: a file an
// exactly-once reader reads.
type CommittedFile struct {
	Destination string
	// Batch is the file's batch; for a compaction's file, the last batch
	// whose rows it holds.
	Batch int64
	// Compaction is the compaction that wrote the file; 0 for a batch's.
	Compaction int64
	FileEntry
}

// CommittedFiles lists the files the manifests of sink commit in d, batch by
// batch in order. Files of a batch without a manifest (in flight, or
// abandoned) are not committed and not listed; nor are the files a
// compaction replaced, once its manifest is written: its files are listed
// instead (protocol.md#compaction).
func CommittedFiles(ctx context.Context, d Destination, sink string) ([]CommittedFile, error) {
	live, _, err := liveManifests(ctx, d.Storage, sink)
	if err != nil {
		return nil, fmt.Errorf("read the manifests of %s: %w", d.Name, err)
	}
	var out []CommittedFile
	for _, m := range live {
		for _, fe := range m.Files {
			out = append(out, CommittedFile{Destination: d.Name, Batch: m.LastBatch, Compaction: m.Compaction, FileEntry: fe})
		}
	}
	return out, nil
}

// ManifestFolders lists the checkpoints whose manifests d holds for sink:
// the sink's own (_streamctl/<sink>/), and each shard's
// (_streamctl/<sink>/shard-<k>/), by name ("orders", "orders/shard-3"). A
// sink whose number of shards changed has committed batches under its
// former layouts' folders as well as its current ones: readers read them
// all.
func ManifestFolders(ctx context.Context, s providers.Storage, sink string) ([]string, error) {
	prefix := MetadataDir + "/" + sink + "/"
	seen := map[string]bool{}
	var out []string
	err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		rest := info.Key[len(prefix):]
		name := sink
		if dir, file, ok := strings.Cut(rest, "/"); ok {
			digits, isShard := strings.CutPrefix(dir, "shard-")
			if !isShard || digits == "" || strings.Trim(digits, "0123456789") != "" || strings.Contains(file, "/") {
				return nil
			}
			name, rest = sink+"/"+dir, file
		}
		if _, ok := parseBatchKey(rest, true); !ok && !strings.HasPrefix(rest, "index-") {
			return nil
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
