package render

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/streamctl/streamctl/planner"
)

// CommentLimit is GitHub's limit on the size of a pull-request comment.
const CommentLimit = 65536

// MarkdownOptions tune the Markdown rendering.
type MarkdownOptions struct {
	// Title is the heading; "" gives "streamctl plan".
	Title string
	// Limit is the most characters the rendering may have (0: CommentLimit).
	// Above it, sinks' details are left out with a note; the title, summary
	// and warnings are kept.
	Limit   int
	Verbose bool
	// MaxBatches is how many new batches are listed per sink (0: 20).
	MaxBatches int
}

// PlanMarkdown renders a plan for a pull-request comment: the summary line
// outside, the warnings, then each sink with changes in a <details> block
// holding its actions as a diff.
func PlanMarkdown(p *planner.Plan, o MarkdownOptions) string {
	if o.Title == "" {
		o.Title = "streamctl plan"
	}
	if o.Limit <= 0 {
		o.Limit = CommentLimit
	}
	var head strings.Builder
	fmt.Fprintf(&head, "### %s\n\n", html.EscapeString(o.Title))
	fmt.Fprintf(&head, "**%s**\n", html.EscapeString(SummaryLine(p)))

	var warnings []string
	if p.Targeted {
		warnings = append(warnings, "> - "+html.EscapeString(TargetedText)+"\n")
	}
	for _, r := range p.Reshards {
		warnings = append(warnings, fmt.Sprintf("> - sink `%s`: reshard %d → %d: %s\n", r.Sink, r.From, r.To, html.EscapeString(ReshardText(r))))
	}
	for _, s := range p.Sinks {
		for _, w := range s.Warnings {
			warnings = append(warnings, fmt.Sprintf("> - sink `%s`: %s\n", s.Name, html.EscapeString(w)))
		}
	}
	for _, r := range p.Removed {
		warnings = append(warnings, fmt.Sprintf("> - sink `%s` is no longer in the configuration: nothing is applied to it and nothing is deleted: %s\n", r.Name, html.EscapeString(RemovedSinkText(r))))
	}
	var upToDate []string
	var sections []string
	for _, s := range p.Sinks {
		if !s.Changes() {
			upToDate = append(upToDate, "`"+s.Name+"`")
			continue
		}
		sections = append(sections, sinkSection(s, o))
	}
	var tail string
	if len(upToDate) > 0 && len(upToDate) <= 50 {
		tail = fmt.Sprintf("\nUp to date: %s.\n", strings.Join(upToDate, ", "))
	} else if len(upToDate) > 50 {
		tail = fmt.Sprintf("\n%s sinks are up to date.\n", Count(int64(len(upToDate))))
	}

	// Warnings are kept, as many as fit in half the budget.
	var warn strings.Builder
	if len(warnings) > 0 {
		warn.WriteString("\n> [!WARNING]\n")
		for i, w := range warnings {
			if head.Len()+warn.Len()+len(w) > o.Limit/2 {
				fmt.Fprintf(&warn, "> - … and %s more warnings: run `streamctl show` on the plan file for all of them.\n", Count(int64(len(warnings)-i)))
				break
			}
			warn.WriteString(w)
		}
	}
	out := head.String() + warn.String()

	total := len(out) + len(tail)
	for _, s := range sections {
		total += len(s)
	}
	if total <= o.Limit {
		return out + strings.Join(sections, "") + tail
	}
	// Too long: keep whole sections while they fit, then a note.
	const noteFormat = "\n> [!NOTE]\n> This plan is too long for one comment: the details of %s of %s sinks with changes are left out. The summary above covers them all; `streamctl show PLAN-FILE` shows everything.\n"
	budget := o.Limit - len(out) - len(fmt.Sprintf(noteFormat, Count(int64(len(sections))), Count(int64(len(sections)))))
	var b strings.Builder
	kept := 0
	for _, s := range sections {
		if b.Len()+len(s) > budget {
			break
		}
		b.WriteString(s)
		kept++
	}
	if b.Len()+len(tail) <= budget {
		b.WriteString(tail)
	}
	return out + b.String() + fmt.Sprintf(noteFormat, Count(int64(len(sections)-kept)), Count(int64(len(sections))))
}

// sinkSection is one sink's <details> block.
func sinkSection(s *planner.SinkPlan, o MarkdownOptions) string {
	var actions bytes.Buffer
	mb := o.MaxBatches
	if mb <= 0 {
		mb = 20
	}
	writeSinkActions(&actions, s, Options{Verbose: o.Verbose, MaxBatches: mb})
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>sink <code>%s</code>: %s</summary>\n\n```diff\n", s.Name, html.EscapeString(sinkSummary(s)))
	for _, line := range strings.Split(strings.TrimRight(actions.String(), "\n"), "\n") {
		// The symbol goes in the first column, where diff highlighting sees it.
		line = strings.TrimPrefix(line, "  ")
		if strings.HasPrefix(line, "Warning:") {
			line = "! " + line
		}
		// An indented setting of a change ("    ~ format = …") gets its
		// symbol in the first column too.
		if rest := strings.TrimLeft(line, " "); len(rest) < len(line) && len(rest) > 1 && strings.ContainsRune("+-~", rune(rest[0])) && rest[1] == ' ' {
			line = rest[:1] + line[1:len(line)-len(rest)] + " " + rest[2:]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteString("```\n\n</details>\n")
	return b.String()
}
