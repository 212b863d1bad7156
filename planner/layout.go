package planner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/state"
)

// A sink's layout is what its batches are written as: format, columns,
// partitioning and the other output settings (pipeline.Layout). The state
// records the layout of the sink's latest batches (state.Sink.Layout, and
// each batch's hash), and a configuration that declares another one is a
// change the plan shows, like Terraform's update in place: the batches
// committed stay as they were written, and the new batches are written in
// the new layout beside them. A batch that must be written again as it was
// first written (one in flight, or one a destination lost) is refused in
// another layout: see checkInFlight and reconcile.

// LayoutChange is a change of what a sink writes.
type LayoutChange struct {
	// From and To are the layouts' hashes (state.Batch.Layout).
	From string `json:"from"`
	To   string `json:"to"`
	// FirstBatch is the first batch written in the new layout: the ones
	// before it stay as they were written.
	FirstBatch int64 `json:"first_batch"`
	// Attributes are the settings that differ, by name; none when the
	// state, written by an older streamctl, records only the former hash.
	Attributes []AttributeChange `json:"attributes,omitempty"`
}

// AttributeChange is one output setting that differs, as HCL values; From
// is "" for a setting added, To "" for one removed.
type AttributeChange struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// Symbol is the setting's diff symbol: + added, - removed, ~ changed.
func (a AttributeChange) Symbol() string {
	switch {
	case a.From == "":
		return "+"
	case a.To == "":
		return "-"
	}
	return "~"
}

// Text renders the change: `format = "jsonl" → "csv"`.
func (a AttributeChange) Text() string {
	switch {
	case a.From == "":
		return a.Name + " = " + a.To
	case a.To == "":
		return a.Name + " = " + a.From
	}
	return a.Name + " = " + a.From + " → " + a.To
}

// lastLayout is the layout the sink's latest batches were written with:
// its hash, and its settings when the state records them.
func lastLayout(st *state.Sink) (string, map[string]string) {
	switch {
	case st.Layout != nil:
		return st.Layout.Hash, st.Layout.Settings
	case st.InFlight != nil && st.InFlight.Layout != "":
		return st.InFlight.Layout, nil
	case len(st.History) > 0:
		return st.History[len(st.History)-1].Layout, nil
	}
	return "", nil
}

// planLayout pins the layout new batches are written with, and plans its
// change when the state's latest batches were written otherwise.
func planLayout(in SinkInput, st *state.Sink, p *SinkPlan) {
	if in.Layout == "" {
		return
	}
	p.Layout = in.Layout
	from, settings := lastLayout(st)
	if from == "" && p.New.Batches > 0 {
		p.Columns = in.Columns
	}
	if from == "" || from == in.Layout {
		return
	}
	p.LayoutChange = &LayoutChange{From: from, To: in.Layout, FirstBatch: p.New.FirstID, Attributes: diffSettings(settings, in.LayoutSettings)}
}

// diffSettings lists the settings that differ, in name order; none when
// either side is unknown.
func diffSettings(from, to map[string]string) []AttributeChange {
	if from == nil || to == nil {
		return nil
	}
	var out []AttributeChange
	for name, v := range from {
		if to[name] != v {
			out = append(out, AttributeChange{Name: name, From: v, To: to[name]})
		}
	}
	for name, v := range to {
		if _, ok := from[name]; !ok {
			out = append(out, AttributeChange{Name: name, To: v})
		}
	}
	// A column added or removed changes the columns' order by itself: the
	// order is shown only when it is all that changed of the columns.
	columns := false
	for _, c := range out {
		if strings.HasPrefix(c.Name, "column ") && (c.From == "" || c.To == "") {
			columns = true
		}
	}
	if columns {
		out = slices.DeleteFunc(out, func(c AttributeChange) bool { return c.Name == columnOrder })
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// columnOrder is the setting of the columns' order (pipeline.Layout.Settings).
const columnOrder = "columns (order)"

// layoutDiffText says which settings differ from those a batch was
// written with, for messages: `format = "jsonl" → "csv"; …`, or a
// general phrase when the state does not record them.
func layoutDiffText(in SinkInput, st *state.Sink, batchLayout string) string {
	if changes := diffSettings(st.LayoutSettings(batchLayout), in.LayoutSettings); len(changes) > 0 {
		parts := make([]string, len(changes))
		for i, c := range changes {
			parts[i] = c.Text()
		}
		return strings.Join(parts, "; ")
	}
	return "its format, columns, partitioning or routing"
}

// drifted refuses to rewrite batch h, which destination d lost, in another
// layout than the one it was written with: the files still there would
// stay beside the new ones, and readers would read its records twice.
func drifted(in SinkInput, st *state.Sink, h state.Batch, d string) error {
	if in.Layout == "" || h.Layout == "" || h.Layout == in.Layout {
		return nil
	}
	return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is missing from %s and was written with other output settings", h.ID, d),
		Detail: fmt.Sprintf("destination %q lost the manifest of committed batch %d, which must be written again exactly as it was first written, but the sink's settings changed since (%s): its files would differ from those it wrote, and readers would see both. Restore the previous settings and apply to repair the batch, then change them again.", d, h.ID, layoutDiffText(in, st, h.Layout))}
}
