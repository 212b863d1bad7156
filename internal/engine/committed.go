package engine

import (
	"context"
	"fmt"
)

// CommittedFile is one file a destination's manifests commit: a file an
// exactly-once reader reads.
type CommittedFile struct {
	Destination string
	Batch       int64
	FileEntry
}

// CommittedFiles lists the files the manifests of sink commit in d, batch by
// batch in order. Files of a batch without a manifest (in flight, or
// abandoned) are not committed and not listed.
func CommittedFiles(ctx context.Context, d Destination, sink string) ([]CommittedFile, error) {
	manifests, err := ReadManifests(ctx, d.Storage, sink, 0)
	if err != nil {
		return nil, fmt.Errorf("read the manifests of %s: %w", d.Name, err)
	}
	var out []CommittedFile
	for _, m := range manifests {
		for _, fe := range m.Files {
			out = append(out, CommittedFile{Destination: d.Name, Batch: m.Batch, FileEntry: fe})
		}
	}
	return out, nil
}
