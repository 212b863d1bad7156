package command

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/streamctl/streamctl/internal/engine"
)

// verifyView is what verify reports: the findings and what was checked.
// Errors are text on stderr in either rendering.
type verifyView interface {
	ui
	verified(v engine.Verification)
}

func (m *Meta) newVerifyView(asJSON, noColor bool) verifyView {
	if asJSON {
		return &verifyJSON{humanUI: m.newHumanUI(noColor)}
	}
	return &verifyHuman{humanUI: m.newHumanUI(noColor)}
}

// verifyHuman prints a line per finding, then the count.
type verifyHuman struct{ *humanUI }

func (v *verifyHuman) verified(r engine.Verification) {
	for _, f := range r.Findings {
		where := f.Sink + "." + f.Destination
		if f.Batch > 0 || f.Problem != engine.ProblemUnlisted {
			where += fmt.Sprintf(" batch %d", f.Batch)
		}
		fmt.Fprintf(v.m.Stdout, "%s: %s %s: %s\n", where, f.Problem, f.Path, f.Detail)
	}
	fmt.Fprintf(v.m.Stdout, "Verified %d manifests and %d files: %d findings.\n", r.Manifests, r.Files, len(r.Findings))
}

// verifyJSON prints one JSON document.
type verifyJSON struct{ *humanUI }

// findingDocument is a finding in verify -json.
type findingDocument struct {
	Sink        string `json:"sink"`
	Destination string `json:"destination"`
	Batch       int64  `json:"batch,omitempty"`
	Path        string `json:"path"`
	Problem     string `json:"problem"` // missing | changed | unlisted | records | unreadable
	Detail      string `json:"detail"`
}

func (v *verifyJSON) verified(r engine.Verification) {
	out := struct {
		Manifests int               `json:"manifests"`
		Files     int               `json:"files"`
		Findings  []findingDocument `json:"findings"`
	}{r.Manifests, r.Files, []findingDocument{}}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, findingDocument{f.Sink, f.Destination, f.Batch, f.Path, string(f.Problem), f.Detail})
	}
	writeIndentedJSON(v.m.Stdout, out)
}

// writeIndentedJSON prints one JSON document, indented for people who read
// it too.
func writeIndentedJSON(w io.Writer, doc any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(doc)
}

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
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	Records     int64  `json:"records"`
	SHA256      string `json:"sha256"`
}

func (v *filesJSON) files(files []engine.CommittedFile) {
	out := []committedFileDocument{}
	for _, f := range files {
		out = append(out, committedFileDocument{f.Destination, f.Batch, f.Path, f.Size, f.Records, f.SHA256})
	}
	writeIndentedJSON(v.m.Stdout, out)
}
