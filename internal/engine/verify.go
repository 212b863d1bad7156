package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Problem is the kind of a verification finding.
type Problem string

// The problems Verify reports. Their names are printed and in verify -json:
// they never change.
const (
	// ProblemMissing: a manifest lists the file; the destination lacks it.
	ProblemMissing Problem = "missing"
	// ProblemChanged: the file's size or SHA-256 differs from its manifest's.
	ProblemChanged Problem = "changed"
	// ProblemUnlisted: a data file no manifest names; readers that honour
	// manifests ignore it.
	ProblemUnlisted Problem = "unlisted"
	// ProblemRecords: a record count differs from the manifest's, or between
	// destinations that all receive every record (deep only).
	ProblemRecords Problem = "records"
	// ProblemUnreadable: the file could not be read.
	ProblemUnreadable Problem = "unreadable"
	// ProblemTable: the destination's table disagrees with its manifests: a
	// committed file its snapshot lacks, or a file it holds that no
	// manifest lists.
	ProblemTable Problem = "table"
)

// TableReader is the reader side of a Table: the data files its current
// snapshot holds, as paths relative to the destination, read without
// writing and without Open.
type TableReader interface {
	Files(ctx context.Context) ([]string, error)
}

// Finding is one discrepancy between a destination and its manifests.
type Finding struct {
	Sink        string
	Destination string // "" for a finding across destinations
	Batch       int64  // 0 for an unlisted file
	Path        string
	Problem     Problem
	Detail      string
}

// Verification is what Verify checked and found.
type Verification struct {
	Manifests int
	Files     int
	Findings  []Finding
}

// Verify checks every destination of sink against its manifests: each file
// a manifest lists exists with the recorded size and SHA-256, and every data
// file is listed. With deep it also counts the records of the files whose
// format allows it, and, for a sink that is not routed, compares the record
// counts of each batch across destinations. Findings come destination by
// destination in manifest order, unlisted files after; an error reading a
// destination's manifests or listing stops the check.
func Verify(ctx context.Context, sink *Sink, deep bool) (Verification, error) {
	return VerifyShards(ctx, []*Sink{sink}, deep)
}

// VerifyShards is Verify of a sink applied as several: the shards of a
// sharded sink, which share its destinations (listed in the same order).
// A data file is unlisted when no shard's manifest names it.
func VerifyShards(ctx context.Context, shards []*Sink, deep bool) (Verification, error) {
	var v Verification
	first := shards[0]
	perBatch := map[string]map[int64]map[string]int64{} // checkpoint → batch → destination → records
	var order []string
	for di, d := range first.Destinations {
		listed := map[string]bool{}
		inBatch := map[string]int64{}
		// The shards of the sink's former layouts, if its number of shards
		// changed, committed files there too.
		names, err := ManifestFolders(ctx, d.Storage, first.declaredName())
		if err != nil {
			return v, fmt.Errorf("verify %s of sink %s: %w", d.Name, first.declaredName(), err)
		}
		for _, sink := range shards {
			names = append(names, sink.Name)
		}
		slices.Sort(names)
		for _, name := range slices.Compact(names) {
			if perBatch[name] == nil {
				perBatch[name] = map[int64]map[string]int64{}
				order = append(order, name)
			}
			if err := verifyManifests(ctx, name, first.Destinations[di], deep, &v, listed, inBatch, perBatch[name]); err != nil {
				return v, err
			}
		}
		tableOwns := func(string) bool { return false }
		if tf, ok := d.Table.(TableFolder); ok {
			folder := tf.Folder() + "/"
			tableOwns = func(key string) bool { return strings.HasPrefix(key, folder) }
		}
		err = d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
			if strings.HasPrefix(info.Key, MetadataDir+"/") || strings.HasPrefix(info.Key, TemporaryDir+"/") || tableOwns(info.Key) || listed[info.Key] {
				return nil
			}
			v.Findings = append(v.Findings, Finding{Sink: first.declaredName(), Destination: d.Name, Path: info.Key, Problem: ProblemUnlisted,
				Detail: "no manifest names this file: readers that honour manifests ignore it"})
			return nil
		})
		if err != nil {
			return v, fmt.Errorf("verify %s of sink %s: %w", d.Name, first.declaredName(), err)
		}
		if tr, ok := d.Table.(TableReader); ok {
			found, err := verifyTable(ctx, first.Name, d, tr, inBatch)
			if err != nil {
				return v, fmt.Errorf("verify %s of sink %s: %w", d.Name, first.Name, err)
			}
			v.Findings = append(v.Findings, found...)
		}
	}
	if deep && first.Layout.RouteBy == "" && len(first.Destinations) > 1 {
		for _, name := range order {
			v.Findings = append(v.Findings, unequalBatches(name, perBatch[name])...)
		}
	}
	return v, nil
}

// verifyManifests checks the files d's manifests of sink list, noting them
// in listed, inBatch and perBatch.
func verifyManifests(ctx context.Context, sink string, d Destination, deep bool, v *Verification, listed map[string]bool, inBatch map[string]int64, perBatch map[int64]map[string]int64) error {
	live, batches, err := liveManifests(ctx, d.Storage, sink)
	if err != nil {
		return fmt.Errorf("verify %s of sink %s: %w", d.Name, sink, err)
	}
	// Every batch manifest counts its batch's records, compacted or not;
	// the files checked are those readers take.
	for _, m := range batches {
		v.Manifests++
		if perBatch[m.Batch] == nil {
			perBatch[m.Batch] = map[string]int64{}
		}
		perBatch[m.Batch][d.Name] = m.Records
	}
	// A table's compaction leaves the files it replaced to the table's
	// older snapshots: they are the manifests', not unlisted.
	if _, ok := d.Table.(TableCompactor); ok {
		compactions, err := readCompactions(ctx, d.Storage, sink)
		if err != nil {
			return fmt.Errorf("verify %s of sink %s: %w", d.Name, sink, err)
		}
		for _, m := range batches {
			for _, fe := range m.Files {
				listed[fe.Path] = true
			}
		}
		for _, c := range compactions {
			for _, fe := range c.Files {
				listed[fe.Path] = true
			}
		}
	}
	for _, m := range live {
		if m.Compaction != 0 {
			v.Manifests++
		}
		for _, fe := range m.Files {
			v.Files++
			listed[fe.Path] = true
			if !strings.HasPrefix(fe.Path, MetadataDir+"/") {
				inBatch[fe.Path] = m.LastBatch
			}
			if f := checkFile(ctx, d.Storage, fe, deep); f != nil {
				f.Sink, f.Destination, f.Batch = sink, d.Name, m.LastBatch
				v.Findings = append(v.Findings, *f)
			}
		}
	}
	return nil
}

// unequalBatches reports the batches whose destinations hold different
// record counts: without routing, every destination gets every record.
func unequalBatches(sink string, perBatch map[int64]map[string]int64) []Finding {
	ids := make([]int64, 0, len(perBatch))
	for id := range perBatch {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var out []Finding
	for _, id := range ids {
		counts := perBatch[id]
		var first int64 = -1
		for _, n := range counts {
			if first < 0 {
				first = n
			} else if n != first {
				out = append(out, Finding{Sink: sink, Batch: id, Problem: ProblemRecords,
					Detail: "destinations hold different record counts for this batch: " + describeCounts(counts)})
				break
			}
		}
	}
	return out
}

// checkFile compares a file with its manifest entry: existence, size and
// checksum; with deep, its record count too.
func checkFile(ctx context.Context, s providers.Storage, fe FileEntry, deep bool) *Finding {
	r, info, err := s.Get(ctx, fe.Path)
	if errors.Is(err, providers.ErrNotExist) {
		return &Finding{Path: fe.Path, Problem: ProblemMissing, Detail: "listed in the manifest, absent from the destination"}
	}
	if err != nil {
		return &Finding{Path: fe.Path, Problem: ProblemUnreadable, Detail: err.Error()}
	}
	defer r.Close()
	if info.Size != fe.Size {
		return &Finding{Path: fe.Path, Problem: ProblemChanged, Detail: fmt.Sprintf("size %d, the manifest says %d", info.Size, fe.Size)}
	}
	h := sha256.New()
	var lines int64
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		h.Write(buf[:n])
		if deep {
			lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return &Finding{Path: fe.Path, Problem: ProblemUnreadable, Detail: err.Error()}
		}
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != fe.SHA256 {
		return &Finding{Path: fe.Path, Problem: ProblemChanged, Detail: fmt.Sprintf("SHA-256 %s, the manifest says %s", sum, fe.SHA256)}
	}
	if deep {
		records, ok := countRecords(fe.Path, lines)
		if ok && records != fe.Records {
			return &Finding{Path: fe.Path, Problem: ProblemRecords, Detail: fmt.Sprintf("%d records, the manifest says %d", records, fe.Records)}
		}
	}
	return nil
}

// countRecords derives a JSONL file's record count from its line count (JSON
// strings hold no raw newline); reject files (.ndjson) are JSON lines too.
// CSV fields may hold newlines, and Parquet keeps its row count in its
// footer: both are covered by their checksum.
func countRecords(path string, lines int64) (int64, bool) {
	if strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".ndjson") {
		return lines, true
	}
	return 0, false
}

// verifyTable compares the data files of d's table's current snapshot with
// those of its manifests: the manifest is written after the table commit, so
// every committed file is in the snapshot, and the snapshot holds no other.
// The table is read, not opened for writing: verify creates and evolves
// nothing.
func verifyTable(ctx context.Context, sink string, d Destination, tr TableReader, inBatch map[string]int64) ([]Finding, error) {
	files, err := tr.Files(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s: %w", d.Table.Describe(), err)
	}
	var out []Finding
	inTable := map[string]bool{}
	for _, f := range files {
		inTable[f] = true
		if _, ok := inBatch[f]; !ok {
			out = append(out, Finding{Sink: sink, Destination: d.Name, Path: f, Problem: ProblemTable,
				Detail: fmt.Sprintf("in the current snapshot of %s, and in no manifest", d.Table.Describe())})
		}
	}
	paths := make([]string, 0, len(inBatch))
	for p := range inBatch {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if !inTable[p] {
			out = append(out, Finding{Sink: sink, Destination: d.Name, Batch: inBatch[p], Path: p, Problem: ProblemTable,
				Detail: fmt.Sprintf("committed by its manifest, absent from the current snapshot of %s", d.Table.Describe())})
		}
	}
	return out, nil
}

// describeCounts lists the record count of each destination, by name:
// "a 2, b 1".
func describeCounts(counts map[string]int64) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s %d", name, counts[name])
	}
	return strings.Join(parts, ", ")
}
