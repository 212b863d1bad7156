package render

import (
	"sort"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// DocumentBatchLimit is how many batches a plan document lists per sink; the
// sink's "pending" describes every one of them losslessly.
const DocumentBatchLimit = 10000

// PlanDocument is `show -json PLAN-FILE`: a saved plan as one JSON document.
// It follows UIVersion's stability promise.
type PlanDocument struct {
	FormatVersion     string `json:"format_version"`
	PlanFormatVersion int    `json:"plan_format_version"`
	StreamctlVersion  string `json:"streamctl_version"`
	Created           string `json:"created"`
	// Lineage and Serial of the state the plan was made from; lineage is ""
	// when there was no state yet.
	Lineage    string             `json:"lineage"`
	Serial     int64              `json:"serial"`
	ConfigHash string             `json:"config_hash"`
	Changes    bool               `json:"changes"`
	Summary    PlanSummary        `json:"summary"`
	SummaryMsg string             `json:"summary_line"`
	Sinks      []PlanDocumentSink `json:"sinks"`
	// RemovedSinks are sinks the state holds and the configuration no longer
	// declares: nothing is done to them.
	RemovedSinks []planner.RemovedSink `json:"removed_sinks"`
}

// PlanDocumentSink is one sink of a PlanDocument.
type PlanDocumentSink struct {
	SinkPlanInfo
	Resume *BatchInfo `json:"resume,omitempty"`
	// Batches lists the new batches, at most DocumentBatchLimit of them;
	// BatchesTruncated is set when there are more.
	Batches          []BatchInfo `json:"batches"`
	BatchesTruncated bool        `json:"batches_truncated"`
}

// NewPlanDocument builds the document of a plan.
func NewPlanDocument(p *planner.Plan) PlanDocument {
	batches, records, dests := p.Totals()
	cleanups := 0
	for _, s := range p.Sinks {
		cleanups += len(s.Cleanups)
	}
	doc := PlanDocument{
		FormatVersion:     UIVersion,
		PlanFormatVersion: p.FormatVersion,
		StreamctlVersion:  p.StreamctlVersion,
		Created:           p.Created.UTC().Format(time.RFC3339),
		Lineage:           p.Lineage,
		Serial:            p.Serial,
		ConfigHash:        p.ConfigHash,
		Changes:           p.Changes(),
		Summary:           PlanSummary{Operation: "plan", Changes: p.Changes(), Batches: batches, Records: records, Destinations: dests, Cleanups: cleanups, OrphanFiles: orphanFiles(p), Counts: PlanCounts(p)},
		SummaryMsg:        SummaryLine(p),
		Sinks:             []PlanDocumentSink{},
		RemovedSinks:      append([]planner.RemovedSink{}, p.Removed...),
	}
	for _, s := range p.Sinks {
		ds := PlanDocumentSink{SinkPlanInfo: sinkPlanInfo(s), Batches: []BatchInfo{}}
		if b := s.Resume; b != nil {
			ds.Resume = &BatchInfo{Sink: s.Name, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Pending: nonNil(b.Pending), Ranges: jsonRanges(b.Ranges), Resume: true}
		}
		s.New.Each(func(b planner.Batch) bool {
			if len(ds.Batches) == DocumentBatchLimit {
				ds.BatchesTruncated = true
				return false
			}
			ds.Batches = append(ds.Batches, BatchInfo{Sink: s.Name, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Ranges: jsonRanges(b.Ranges)})
			return true
		})
		doc.Sinks = append(doc.Sinks, ds)
	}
	return doc
}

// StateDocument is `show -json` without a plan file: the checkpoint of every
// sink. `state pull` prints the raw state instead.
type StateDocument struct {
	FormatVersion      string              `json:"format_version"`
	StateFormatVersion int                 `json:"state_format_version"`
	StreamctlVersion   string              `json:"streamctl_version"`
	Backend            string              `json:"backend"`
	Exists             bool                `json:"exists"`
	Lineage            string              `json:"lineage,omitempty"`
	Serial             int64               `json:"serial"`
	Sinks              []StateDocumentSink `json:"sinks"`
}

// StateDocumentSink is one sink's checkpoint.
type StateDocumentSink struct {
	Name             string             `json:"name"`
	Source           state.SourceRef    `json:"source"`
	NextBatch        int64              `json:"next_batch"`
	CommittedBatches int64              `json:"committed_batches"`
	CommittedRecords int64              `json:"committed_records"`
	LastCommit       *string            `json:"last_commit"`
	Offsets          []PartitionOffset  `json:"offsets"`
	InFlight         *BatchInfo         `json:"in_flight"`
	Destinations     []DestinationState `json:"destinations"`
}

// PartitionOffset is a committed offset: the next offset to read.
type PartitionOffset struct {
	Partition string `json:"partition"`
	Offset    int64  `json:"offset"`
}

// DestinationState is one destination's checkpoint.
type DestinationState struct {
	Name      string `json:"name"`
	LastBatch int64  `json:"last_batch"`
}

// NewStateDocument builds the document of a state; exists is false for a
// state that was never written.
func NewStateDocument(st *state.State, backend string, exists bool) StateDocument {
	doc := StateDocument{
		FormatVersion:      UIVersion,
		StateFormatVersion: st.Version,
		StreamctlVersion:   st.StreamctlVersion,
		Backend:            backend,
		Exists:             exists,
		Sinks:              []StateDocumentSink{},
	}
	if !exists {
		return doc
	}
	doc.Lineage, doc.Serial = st.Lineage, st.Serial
	for _, name := range st.SinkNames() {
		doc.Sinks = append(doc.Sinks, newStateDocumentSink(name, st.Sinks[name]))
	}
	return doc
}

func newStateDocumentSink(name string, s *state.Sink) StateDocumentSink {
	ds := StateDocumentSink{
		Name:             name,
		Source:           s.Source,
		NextBatch:        s.NextBatch,
		CommittedBatches: s.CommittedBatches,
		CommittedRecords: s.CommittedRecords,
		Offsets:          []PartitionOffset{},
		Destinations:     []DestinationState{},
	}
	if s.LastCommit != nil {
		t := s.LastCommit.UTC().Format(time.RFC3339Nano)
		ds.LastCommit = &t
	}
	for _, p := range sortedKeys(s.Offsets) {
		ds.Offsets = append(ds.Offsets, PartitionOffset{Partition: p, Offset: s.Offsets[p]})
	}
	if b := s.InFlight; b != nil {
		ds.InFlight = &BatchInfo{Sink: name, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Ranges: jsonRanges(b.Ranges)}
	}
	for _, d := range sortedKeys(s.Destinations) {
		ds.Destinations = append(ds.Destinations, DestinationState{Name: d, LastBatch: s.Destinations[d].LastBatch})
	}
	return ds
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
