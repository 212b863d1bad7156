package command

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/providers"
)

// VerifyCommand checks that every destination holds what its manifests say.
type VerifyCommand struct{ *Meta }

func (c *VerifyCommand) Synopsis() string { return "Check destinations against their manifests" }
func (c *VerifyCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] verify [options] [SINK]

  Reads every manifest of every destination (of SINK, or of all sinks) and
  checks that each file it lists exists with the recorded size and SHA-256.
  Reports missing, changed and unlisted files (files that no manifest names,
  which readers honouring manifests ignore). Exits 2 on any finding.

Options:

  -deep               Also count each file's records and compare them with the
                      manifest, and check that destinations of a sink that is
                      not routed hold the same number of records per batch.
  -json               Print the findings as one JSON document.
`+configFlagsHelp) + "\n"
}

// finding is one discrepancy verify found.
type finding struct {
	Sink        string `json:"sink"`
	Destination string `json:"destination"`
	Batch       int64  `json:"batch,omitempty"`
	Path        string `json:"path"`
	Problem     string `json:"problem"` // missing | changed | unlisted | records | unreadable
	Detail      string `json:"detail"`
}

func (c *VerifyCommand) Run(args []string) int {
	var f configFlags
	var deep, asJSON bool
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	fs.BoolVar(&deep, "deep", false, "")
	fs.BoolVar(&asJSON, "json", false, "")
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 1 {
		return c.errorf("verify takes at most one sink name\n\n%s", c.Help())
	}
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	if fs.NArg() == 1 && cfg.Sink(fs.Arg(0)) == nil {
		return c.errorf("the configuration has no sink %q", fs.Arg(0))
	}
	ctx, stop := signalContext()
	defer stop()
	ws, err := openWorkspace(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer ws.Close()

	var findings []finding
	var files, batches int
	for _, s := range ws.sinks {
		if fs.NArg() == 1 && s.Name != fs.Arg(0) {
			continue
		}
		perBatch := map[int64]map[string]int64{} // batch → destination → records
		for _, d := range s.Destinations {
			manifests, err := engine.ReadManifests(ctx, d.Storage, s.Name, 0)
			if err != nil {
				return c.errorf("verify %s of sink %s: %v", d.Name, s.Name, err)
			}
			listed := map[string]bool{}
			for _, m := range manifests {
				batches++
				if perBatch[m.Batch] == nil {
					perBatch[m.Batch] = map[string]int64{}
				}
				perBatch[m.Batch][d.Name] = m.Records
				for _, fe := range m.Files {
					files++
					listed[fe.Path] = true
					if p := checkFile(ctx, d.Storage, fe, deep); p != nil {
						p.Sink, p.Destination, p.Batch = s.Name, d.Name, m.Batch
						findings = append(findings, *p)
					}
				}
			}
			err = d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
				if strings.HasPrefix(info.Key, engine.MetadataDir+"/") || strings.HasPrefix(info.Key, engine.TemporaryDir+"/") || listed[info.Key] {
					return nil
				}
				findings = append(findings, finding{Sink: s.Name, Destination: d.Name, Path: info.Key, Problem: "unlisted",
					Detail: "no manifest names this file: readers that honour manifests ignore it"})
				return nil
			})
			if err != nil {
				return c.errorf("verify %s of sink %s: %v", d.Name, s.Name, err)
			}
		}
		if deep && s.Layout.RouteBy == "" && len(s.Destinations) > 1 {
			ids := make([]int64, 0, len(perBatch))
			for id := range perBatch {
				ids = append(ids, id)
			}
			sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
			for _, id := range ids {
				counts := perBatch[id]
				var first int64 = -1
				for _, n := range counts {
					if first < 0 {
						first = n
					} else if n != first {
						findings = append(findings, finding{Sink: s.Name, Batch: id, Problem: "records",
							Detail: fmt.Sprintf("destinations hold different record counts for this batch: %v", counts)})
						break
					}
				}
			}
		}
	}

	if asJSON {
		out := struct {
			Batches  int       `json:"manifests"`
			Files    int       `json:"files"`
			Findings []finding `json:"findings"`
		}{batches, files, findings}
		if out.Findings == nil {
			out.Findings = []finding{}
		}
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	} else {
		for _, p := range findings {
			where := p.Sink + "." + p.Destination
			if p.Batch > 0 || p.Problem != "unlisted" {
				where += fmt.Sprintf(" batch %d", p.Batch)
			}
			fmt.Fprintf(c.Stdout, "%s: %s %s: %s\n", where, p.Problem, p.Path, p.Detail)
		}
		fmt.Fprintf(c.Stdout, "Verified %d manifests and %d files: %d findings.\n", batches, files, len(findings))
	}
	if len(findings) > 0 {
		return ExitChanges
	}
	return ExitOK
}

// checkFile compares a file with its manifest entry: existence, size and
// checksum; with deep, its record count too.
func checkFile(ctx context.Context, s providers.Storage, fe engine.FileEntry, deep bool) *finding {
	r, info, err := s.Get(ctx, fe.Path)
	if errors.Is(err, providers.ErrNotExist) {
		return &finding{Path: fe.Path, Problem: "missing", Detail: "listed in the manifest, absent from the destination"}
	}
	if err != nil {
		return &finding{Path: fe.Path, Problem: "unreadable", Detail: err.Error()}
	}
	defer r.Close()
	if info.Size != fe.Size {
		return &finding{Path: fe.Path, Problem: "changed", Detail: fmt.Sprintf("size %d, the manifest says %d", info.Size, fe.Size)}
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
			return &finding{Path: fe.Path, Problem: "unreadable", Detail: err.Error()}
		}
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != fe.SHA256 {
		return &finding{Path: fe.Path, Problem: "changed", Detail: fmt.Sprintf("SHA-256 %s, the manifest says %s", sum, fe.SHA256)}
	}
	if deep {
		records, ok := countRecords(fe.Path, lines)
		if ok && records != fe.Records {
			return &finding{Path: fe.Path, Problem: "records", Detail: fmt.Sprintf("%d records, the manifest says %d", records, fe.Records)}
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
