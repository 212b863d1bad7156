package command

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/render"
)

// verifyView is what verify reports: the findings and what was checked.
// Errors are text on stderr in either rendering.
type verifyView interface {
	ui
	// verified reports the findings; sharded names the sinks with shards,
	// whose batches are addressed by shard.
	verified(v engine.Verification, sharded map[string]bool)
}

func (m *Meta) newVerifyView(asJSON, noColor bool) verifyView {
	if asJSON {
		return &verifyJSON{humanUI: m.newHumanUI(noColor)}
	}
	return &verifyHuman{humanUI: m.newHumanUI(noColor)}
}

// verifyHuman prints a line per finding, then the count.
type verifyHuman struct{ *humanUI }

func (v *verifyHuman) verified(r engine.Verification, sharded map[string]bool) {
	for _, f := range r.Findings {
		where := f.Sink + "." + f.Destination
		if f.Batch > 0 || f.Problem != engine.ProblemUnlisted {
			where += fmt.Sprintf(" batch %d", f.Batch)
		}
		fmt.Fprintf(v.m.Stdout, "%s: %s %s: %s\n", where, f.Problem, f.Path, f.Detail)
	}
	fmt.Fprintf(v.m.Stdout, "Verified %s and %s: %s.\n", render.Plural(int64(r.Manifests), "manifest", "manifests"), render.Plural(int64(r.Files), "file", "files"), render.Plural(int64(len(r.Findings)), "finding", "findings"))
	if hint := replaceHint(r.Findings, sharded); hint != "" {
		fmt.Fprintf(v.m.Stdout, "\n%s\n", hint)
	}
}

// replaceable reports whether writing f's batch again from the source
// mends f: a file a manifest lists that is missing or changed.
func replaceable(f engine.Finding) bool {
	return f.Destination != "" && (f.Problem == engine.ProblemMissing || f.Problem == engine.ProblemChanged)
}

// replaceAddressOf is f's batch as -replace names it; "" for a sink with
// shards, whose findings do not say the shard.
func replaceAddressOf(f engine.Finding, sharded map[string]bool) string {
	if !replaceable(f) || sharded[f.Sink] {
		return ""
	}
	return fmt.Sprintf("sink.%s[batch %d]", f.Sink, f.Batch)
}

// replaceHint is the command that writes the findings' batches again.
func replaceHint(findings []engine.Finding, sharded map[string]bool) string {
	var args []string
	seen := map[string]bool{}
	shardedFound := false
	for _, f := range findings {
		if replaceable(f) && sharded[f.Sink] {
			shardedFound = true
		}
		if a := replaceAddressOf(f, sharded); a != "" && !seen[a] {
			seen[a] = true
			args = append(args, "-replace='"+a+"'")
		}
	}
	var hint []string
	if len(args) > 0 {
		hint = append(hint, fmt.Sprintf("To write the batches with missing or changed files again from the source, review and apply:\n  streamctl plan %s -out=replace.tfplan\n  streamctl apply replace.tfplan", strings.Join(args, " ")))
	}
	if shardedFound {
		hint = append(hint, "A sink with shards numbers its batches per shard: find the shard of each batch with streamctl state show SINK/shard-K, then plan -replace='sink.SINK/shard-K[batch N]'.")
	}
	return strings.Join(hint, "\n")
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
	// Replace is the -replace address that writes the batch again, for a
	// file missing or changed.
	Replace string `json:"replace,omitempty"`
}

func (v *verifyJSON) verified(r engine.Verification, sharded map[string]bool) {
	out := struct {
		Manifests int               `json:"manifests"`
		Files     int               `json:"files"`
		Findings  []findingDocument `json:"findings"`
	}{r.Manifests, r.Files, []findingDocument{}}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, findingDocument{f.Sink, f.Destination, f.Batch, f.Path, string(f.Problem), f.Detail, replaceAddressOf(f, sharded)})
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
