// Command reconcile measures what a long-lived sink costs: the state's size and
// the time of `streamctl plan` (which lists every destination's control
// folder) and `streamctl files` after many batches. It builds the state that
// committed -batches batches of one record each and a destination holding
// their manifests, first as single manifests, then gathered into indexes as
// apply leaves them, and times plan with and without -refresh, and files.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/state"
)

func main() {
	batches := flag.Int64("batches", 100_000, "committed batches of one record each")
	keep := flag.Bool("keep", false, "keep the work directory, to look into it")
	flag.Parse()
	if err := run(*batches, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "reconcile bench:", err)
		os.Exit(1)
	}
}

func run(batches int64, keep bool) error {
	dir, err := os.MkdirTemp("", "streamctl-reconcile-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work directory:", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	bin := filepath.Join(dir, "streamctl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	cfg := fmt.Sprintf(`
source "generate" "g" {
  records_per_partition = %d
}
sink "orders" {
  source = source.generate.g
  batch {
    max_records = 1
  }
  destination "local" "a" {
    path = "out/a"
  }
}
`, batches)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(cfg), 0o644); err != nil {
		return err
	}

	// The manifests a real run would have left: every block of
	// engine.DefaultIndexInterval batches gathered into an index. The bench
	// first times the single manifests of a run before indexes existed.
	mdir := filepath.Join(dir, "out", "a", engine.MetadataDir, "orders")
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return err
	}
	manifest := func(id int64) *engine.Manifest {
		return &engine.Manifest{FormatVersion: engine.ManifestVersion, Sink: "orders", Destination: "a", Batch: id,
			Source: "generate:seed=0,payload_bytes=0", Ranges: []state.Range{{Partition: "0", Start: id, End: id + 1}},
			Files:   []engine.FileEntry{{Path: fmt.Sprintf("part-%08d-00000.jsonl", id), Size: 150, Records: 1, SHA256: strings.Repeat("0", 64)}},
			Records: 1, Bytes: 150, Committed: time.Now().UTC()}
	}
	writeSingles := func() error {
		for id := int64(0); id < batches; id++ {
			data, _ := json.Marshal(manifest(id))
			if err := os.WriteFile(filepath.Join(mdir, fmt.Sprintf("%d.json", id)), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	writeIndexes := func() error {
		if err := os.RemoveAll(mdir); err != nil {
			return err
		}
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			return err
		}
		const n = engine.DefaultIndexInterval
		for first := int64(0); first < batches; first += n {
			ix := engine.ManifestIndex{FormatVersion: engine.IndexVersion, Sink: "orders", Destination: "a", FirstBatch: first, LastBatch: first + n - 1}
			for id := first; id < min(first+n, batches); id++ {
				ix.Manifests = append(ix.Manifests, manifest(id))
			}
			data, _ := json.Marshal(ix)
			if err := os.WriteFile(filepath.Join(dir, "out", "a", engine.IndexKey("orders", first)), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}

	// The state after those batches: the history keeps the last 1000.
	st := state.New("bench")
	sink := state.NewSink(state.SourceRef{Type: "generate", Name: "g", Identity: "generate:seed=0,payload_bytes=0"})
	st.Sinks["orders"] = sink
	now := time.Now()
	for id := int64(0); id < batches; id++ {
		sink.InFlight = &state.Batch{ID: id, Ranges: []state.Range{{Partition: "0", Start: id, End: id + 1}}, Destinations: []string{"a"}, Records: 1}
		sink.NextBatch = id + 1
		sink.Commit(now, state.DefaultHistory)
	}
	data, err := state.Encode(st)
	if err != nil {
		return err
	}
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	os.MkdirAll(filepath.Dir(statePath), 0o755)
	if err := os.WriteFile(statePath, data, 0o600); err != nil {
		return err
	}
	fmt.Printf("state after %d batches: %d bytes (history of %d batches)\n", batches, len(data), len(sink.History))

	layouts := []struct {
		name  string
		write func() error
	}{
		{fmt.Sprintf("%d single manifests", batches), writeSingles},
		{fmt.Sprintf("%d indexes", (batches+engine.DefaultIndexInterval-1)/engine.DefaultIndexInterval), writeIndexes},
	}
	for _, l := range layouts {
		if err := l.write(); err != nil {
			return err
		}
		fmt.Printf("\ndestination holding %s:\n", l.name)
		for _, args := range [][]string{{"plan", "-detailed-exitcode"}, {"plan", "-detailed-exitcode", "-refresh=false"}, {"files", "-json", "orders"}} {
			var best time.Duration
			for i := 0; i < 3; i++ {
				cmd := exec.Command(bin, append([]string{"-chdir=" + dir}, args...)...)
				t0 := time.Now()
				out, err := cmd.CombinedOutput()
				d := time.Since(t0)
				if err != nil {
					return fmt.Errorf("%v: %v\n%s", args, err, out)
				}
				if args[0] == "plan" && !strings.Contains(string(out), "No changes.") {
					return fmt.Errorf("%v: expected no changes:\n%s", args, out)
				}
				if args[0] == "files" && strings.Count(string(out), `"batch"`) != int(batches) {
					return fmt.Errorf("%v: expected %d files", args, batches)
				}
				if best == 0 || d < best {
					best = d
				}
			}
			fmt.Printf("  %-40s %.2fs (best of 3)\n", strings.Join(args, " "), best.Seconds())
		}
	}
	return nil
}
