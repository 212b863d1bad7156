package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// checkReplacement compares the files a batch written again (-replace)
// gives with those its manifest in d lists, before any is put in place:
// only identical files may overwrite the committed ones, so that the
// manifest stays true and is not written again. intact reports whether d
// holds the manifest; a destination that lost it is repaired as any other.
func checkReplacement(ctx context.Context, sink *Sink, b planner.Batch, d *Destination, files []FileEntry) (intact bool, err error) {
	if !b.Replace {
		return false, nil
	}
	have, err := lookupManifest(ctx, d.Storage, sink.Name, b.ID, true)
	if errors.Is(err, providers.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("replace batch %d in %s: read its manifest: %w", b.ID, d.Name, err)
	}
	// A compacted batch's rows are in the compaction's files: its own
	// files, put back, would be read twice by a glob.
	compactions, err := readCompactions(ctx, d.Storage, sink.Name)
	if err != nil {
		return false, fmt.Errorf("replace batch %d in %s: read its compactions: %w", b.ID, d.Name, err)
	}
	for _, c := range compactions {
		if slices.Contains(c.Replaces, BatchManifestName(b.ID)) {
			return false, fmt.Errorf("replace batch %d in %s: compaction %d rewrote its rows into the files its manifest lists and deleted the batch's, so they cannot be put back. Nothing was replaced: check the compaction's files with streamctl verify -deep", b.ID, d.Name, c.Compaction)
		}
	}
	if len(have.Files) != len(files) {
		return false, replacementError(b, d, fmt.Sprintf("%d files instead of the %d it lists", len(files), len(have.Files)))
	}
	for i := range files {
		if !files[i].Same(have.Files[i]) {
			return false, replacementError(b, d, fmt.Sprintf("%s (%d bytes, %d records) where it lists %s (%d bytes, %d records)", files[i].Path, files[i].Size, files[i].Records, have.Files[i].Path, have.Files[i].Size, have.Files[i].Records))
		}
	}
	return true, nil
}

func replacementError(b planner.Batch, d *Destination, what string) error {
	return fmt.Errorf("replace batch %d in %s: written again from the source, it gives other files than its manifest lists: %s. Nothing was replaced: the source returns other records for the batch's ranges, or this streamctl writes them otherwise than the one that committed it. Restore the files from a backup", b.ID, d.Name, what)
}
