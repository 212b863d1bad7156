package command

import (
	"fmt"
	"text/tabwriter"

	"github.com/streamctl/streamctl/internal/engine"
)

// filesView is what files reports: the committed files. Errors are text on
// stderr in either rendering.
type filesView interface {
	ui
	files(files []engine.CommittedFile)
}

func (m *Meta) newFilesView(asJSON, noColor bool) filesView {
	if asJSON {
		return &filesJSON{humanUI: m.newHumanUI(noColor)}
	}
	return &filesHuman{humanUI: m.newHumanUI(noColor)}
}

// filesHuman prints a table.
type filesHuman struct{ *humanUI }

func (v *filesHuman) files(files []engine.CommittedFile) {
	w := tabwriter.NewWriter(v.m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DESTINATION\tBATCH\tRECORDS\tBYTES\tPATH")
	for _, f := range files {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\n", f.Destination, f.Batch, f.Records, f.Size, f.Path)
	}
	w.Flush()
}

// filesJSON prints one JSON document: an array of files.
type filesJSON struct{ *humanUI }

// committedFileDocument is a file in files -json.
type committedFileDocument struct {
	Destination string `json:"destination"`
	Batch       int64  `json:"batch"`
	// Compaction is the compaction that wrote the file; absent for a
	// batch's.
	Compaction int64  `json:"compaction,omitempty"`
	Path       string `json:"path"`
	Size       int64  `json:"size"`
	Records    int64  `json:"records"`
	SHA256     string `json:"sha256"`
}

func (v *filesJSON) files(files []engine.CommittedFile) {
	out := []committedFileDocument{}
	for _, f := range files {
		out = append(out, committedFileDocument{f.Destination, f.Batch, f.Compaction, f.Path, f.Size, f.Records, f.SHA256})
	}
	writeIndentedJSON(v.m.Stdout, out)
}
