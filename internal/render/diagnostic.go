package render

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Severities of a Diagnostic.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Diagnostic is an error or warning in the -json UI, shaped like Terraform's:
// a summary, a detail saying what to do, and where in the configuration.
type Diagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	// Address names the object concerned, e.g. "sink.orders", when known.
	Address string             `json:"address,omitempty"`
	Range   *DiagnosticRange   `json:"range,omitempty"`
	Snippet *DiagnosticSnippet `json:"snippet,omitempty"`
}

// DiagnosticRange is a span of a configuration file.
type DiagnosticRange struct {
	Filename string        `json:"filename"`
	Start    DiagnosticPos `json:"start"`
	End      DiagnosticPos `json:"end"`
}

// DiagnosticPos is a position: 1-based line and column, 0-based byte offset.
type DiagnosticPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// DiagnosticSnippet is the source around a diagnostic's range.
type DiagnosticSnippet struct {
	// Context is the enclosing block, e.g. `sink "orders"`, when known.
	Context *string `json:"context"`
	// Code is the whole lines the range covers.
	Code      string `json:"code"`
	StartLine int    `json:"start_line"`
	// HighlightStartOffset and HighlightEndOffset are byte offsets into Code
	// of the range itself.
	HighlightStartOffset int `json:"highlight_start_offset"`
	HighlightEndOffset   int `json:"highlight_end_offset"`
}

// NewDiagnostic converts an HCL diagnostic, with a snippet from files.
func NewDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File) Diagnostic {
	out := Diagnostic{Severity: SeverityError, Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		out.Severity = SeverityWarning
	}
	if d.Subject == nil {
		return out
	}
	rng := *d.Subject
	out.Range = &DiagnosticRange{
		Filename: rng.Filename,
		Start:    DiagnosticPos{Line: rng.Start.Line, Column: rng.Start.Column, Byte: rng.Start.Byte},
		End:      DiagnosticPos{Line: rng.End.Line, Column: rng.End.Column, Byte: rng.End.Byte},
	}
	f := files[rng.Filename]
	if f == nil || f.Bytes == nil {
		return out
	}
	out.Snippet = snippet(f, rng)
	return out
}

func snippet(f *hcl.File, rng hcl.Range) *DiagnosticSnippet {
	src := f.Bytes
	s := &DiagnosticSnippet{StartLine: rng.Start.Line}
	type contextStringer interface{ ContextString(offset int) string }
	if cs, ok := f.Nav.(contextStringer); ok {
		if c := cs.ContextString(rng.Start.Byte); c != "" {
			s.Context = &c
		}
	}
	// The lines the range covers, whole.
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, len(src)+1)
	var code strings.Builder
	lineStart := 0
	codeStart := -1
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line >= rng.Start.Line && line <= rng.End.Line {
			if codeStart < 0 {
				codeStart = lineStart
			} else {
				code.WriteByte('\n')
			}
			code.WriteString(text)
		}
		lineStart += len(text) + 1
		if line > rng.End.Line {
			break
		}
	}
	s.Code = code.String()
	if codeStart < 0 {
		codeStart = 0
	}
	s.HighlightStartOffset = max(0, min(rng.Start.Byte-codeStart, len(s.Code)))
	s.HighlightEndOffset = max(s.HighlightStartOffset, min(rng.End.Byte-codeStart, len(s.Code)))
	return s
}

// NewDiagnostics converts HCL diagnostics, in their order.
func NewDiagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, NewDiagnostic(d, files))
	}
	return out
}
