package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// localOutput writes files to a local destination, as the engine stages
// them, and samples the process's open descriptors at every Create.
type localOutput struct {
	s    *local.Storage
	peak int
}

func (o *localOutput) Create(_ []int, rel string) (File, error) {
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		o.peak = max(o.peak, len(ents))
	}
	w, err := o.s.Create(context.Background(), "_temporary/7/"+rel)
	if err != nil {
		return nil, err
	}
	return localFile{w}, nil
}

type localFile struct{ w providers.ObjectWriter }

func (f localFile) Write(p []byte) (int, error) { return f.w.Write(p) }
func (f localFile) Finish(int64) error          { return f.w.Commit() }
func (f localFile) Abort()                      { f.w.Abort() }

// A batch over thousands of folders into a local destination holds a
// bounded number of descriptors, whatever the folder count (the issue's
// batch failed with "too many open files").
func TestManyFoldersLocalDescriptors(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	dir := t.TempDir()
	out := &localOutput{s: local.New(dir)}
	recs := genRecords(20000)
	ents, _ := os.ReadDir("/proc/self/fd")
	base := len(ents)
	w, err := New(Layout{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(250, customer_id)", "country"}}, 7, []int{0}, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "_temporary/7/*/*/*.parquet"))
	if len(files) < 1900 || int64(len(files)) != st.Files {
		t.Fatalf("%d files (stats %d), want one per folder, about 2,000", len(files), st.Files)
	}
	// One descriptor per open file, and a few for the sorter's temporary
	// file and directories being synced.
	if got := out.peak - base; got > openBound+8 {
		t.Errorf("%d descriptors open at once over %d folders, want at most %d", got, len(files), openBound+8)
	}
	t.Logf("%d folders: at most %d descriptors open beyond the %d before", len(files), out.peak-base, base)
}
