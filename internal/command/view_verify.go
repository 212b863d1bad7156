package command

import (
	"encoding/json"
	"fmt"
	"io"

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
	Problem     string `json:"problem"` // missing | changed | unlisted | records | unreadable | table
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
