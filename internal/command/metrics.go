package command

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// applyMetrics is what -metrics-file reports about one apply.
type applyMetrics struct {
	start, end time.Time
	success    bool
	plan       *planner.Plan  // nil when the apply failed before planning
	mgr        *state.Manager // the state after the apply
	sinks      []render.SinkSummary
	// worker labels every series (-metrics-worker); skipped are the sinks
	// another process applied, which a worker's file leaves to that one.
	worker  string
	skipped map[string]bool
}

const lastSuccessMetric = "streamctl_apply_last_success_timestamp_seconds"

// writeMetrics writes the Prometheus text format for node_exporter's textfile
// collector, atomically: a scrape never sees half a file. A failed apply
// keeps the previous file's last success timestamp, so that an alert on its
// age fires.
func (m *Meta) writeMetrics(path string, met *applyMetrics) error {
	var b bytes.Buffer
	gauge := func(name, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
	}
	// run labels the series of the run, sink those of one sink.
	run, sink := "", func(name string) string { return "{sink=" + label(name) + "}" }
	if met.worker != "" {
		run = "{worker=" + label(met.worker) + "}"
		sink = func(name string) string { return "{worker=" + label(met.worker) + ",sink=" + label(name) + "}" }
	}
	success := 0
	if met.success {
		success = 1
	}
	gauge("streamctl_apply_success", "Whether the last apply succeeded (1) or failed (0).")
	fmt.Fprintf(&b, "streamctl_apply_success%s %d\n", run, success)
	gauge("streamctl_apply_duration_seconds", "How long the last apply ran.")
	fmt.Fprintf(&b, "streamctl_apply_duration_seconds%s %s\n", run, formatFloat(met.end.Sub(met.start).Seconds()))
	gauge("streamctl_apply_last_run_timestamp_seconds", "When the last apply ended, in seconds since the epoch.")
	fmt.Fprintf(&b, "streamctl_apply_last_run_timestamp_seconds%s %d\n", run, met.end.Unix())
	last := ""
	if met.success {
		last = strconv.FormatInt(met.end.Unix(), 10)
	} else {
		last = previousMetric(m.abs(path), lastSuccessMetric+run)
	}
	if last != "" {
		gauge(lastSuccessMetric, "When an apply last succeeded, in seconds since the epoch.")
		fmt.Fprintf(&b, "%s%s %s\n", lastSuccessMetric, run, last)
	}

	perSink := map[string]render.SinkSummary{}
	for _, s := range met.sinks {
		perSink[s.Sink] = s
	}
	if met.plan != nil {
		var planned []*planner.SinkPlan
		for _, sp := range met.plan.Sinks {
			if !met.skipped[sp.Name] {
				planned = append(planned, sp)
			}
		}
		series := []struct {
			name, help string
			value      func(render.SinkSummary) int64
		}{
			{"streamctl_apply_batches", "Batches the last apply committed, per sink.", func(s render.SinkSummary) int64 { return s.Batches }},
			{"streamctl_apply_records", "Records the last apply read from the source, per sink.", func(s render.SinkSummary) int64 { return s.Records }},
			{"streamctl_apply_files", "Files the last apply wrote, all destinations, per sink.", func(s render.SinkSummary) int64 { return s.Files }},
			{"streamctl_apply_bytes", "Bytes the last apply wrote, all destinations, per sink.", func(s render.SinkSummary) int64 { return s.Bytes }},
		}
		for _, se := range series {
			gauge(se.name, se.help)
			for _, sp := range planned {
				fmt.Fprintf(&b, "%s%s %d\n", se.name, sink(sp.Name), se.value(perSink[sp.Name]))
			}
		}
		var st *state.State
		if met.mgr != nil {
			st = met.mgr.State()
		}
		gauge("streamctl_sink_lag_records", "Records the source held beyond the committed offsets when the last apply ended, per sink.")
		for _, sp := range planned {
			var ss *state.Sink
			if st != nil {
				ss = st.Sinks[sp.Name]
			}
			fmt.Fprintf(&b, "streamctl_sink_lag_records%s %d\n", sink(sp.Name), workspace.Lag(sp, ss))
		}
		if st != nil {
			fmt.Fprintf(&b, "# HELP streamctl_sink_committed_records_total Records committed since the sink started.\n# TYPE streamctl_sink_committed_records_total counter\n")
			for _, sp := range planned {
				if ss := st.Sinks[sp.Name]; ss != nil {
					fmt.Fprintf(&b, "streamctl_sink_committed_records_total%s %d\n", sink(sp.Name), ss.CommittedRecords)
				}
			}
			gauge("streamctl_sink_last_commit_timestamp_seconds", "When the sink last committed a batch, in seconds since the epoch.")
			for _, sp := range planned {
				if ss := st.Sinks[sp.Name]; ss != nil && ss.LastCommit != nil {
					fmt.Fprintf(&b, "streamctl_sink_last_commit_timestamp_seconds%s %d\n", sink(sp.Name), ss.LastCommit.Unix())
				}
			}
		}
	}
	return writeFileAtomic(m.abs(path), b.Bytes(), 0o644)
}

// previousMetric reads an unlabelled metric's value from an earlier file.
func previousMetric(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func label(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(v) + `"`
}

func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
