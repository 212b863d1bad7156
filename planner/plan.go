package planner

import (
	"encoding/json"
	"fmt"
	"time"
)

// FormatVersion is the version of saved plan files.
const FormatVersion = 1

// Plan is a whole plan, as saved by `plan -out` and run by `apply FILE`. It
// carries what it was made from, so that apply can refuse a stale one.
type Plan struct {
	FormatVersion    int       `json:"format_version"`
	StreamctlVersion string    `json:"streamctl_version"`
	Created          time.Time `json:"created"`
	// Lineage and Serial of the state the plan was made from; Lineage is ""
	// when there was no state yet.
	Lineage    string `json:"lineage"`
	Serial     int64  `json:"serial"`
	ConfigHash string `json:"config_hash"`
	// Variables are the non-sensitive variable values the plan was made with
	// (cty's simple JSON); apply of a saved plan runs with them.
	Variables map[string]json.RawMessage `json:"variables,omitempty"`
	// NoRefresh is set when the destinations were not observed (-refresh=false).
	NoRefresh bool `json:"no_refresh,omitempty"`
	// MaxBatches is the -max-batches the plan was made with (0: none).
	MaxBatches int64       `json:"max_batches,omitempty"`
	Sinks      []*SinkPlan `json:"sinks"`
	// Removed are sinks the state holds that the configuration no longer
	// declares: nothing is done to them, and nothing of theirs is deleted.
	Removed []RemovedSink `json:"removed_sinks,omitempty"`
}

// RemovedSink is a sink the state holds and the configuration does not.
type RemovedSink struct {
	Name             string   `json:"name"`
	Source           string   `json:"source"`
	CommittedBatches int64    `json:"committed_batches"`
	CommittedRecords int64    `json:"committed_records"`
	Destinations     []string `json:"destinations"`
	InFlight         *int64   `json:"in_flight_batch,omitempty"`
}

// Changes reports whether applying the plan would do anything.
func (p *Plan) Changes() bool {
	for _, s := range p.Sinks {
		if s.Changes() {
			return true
		}
	}
	return false
}

// Totals counts the batches, records and distinct destinations of a plan.
func (p *Plan) Totals() (batches, records int64, destinations int) {
	dests := map[string]bool{}
	for _, s := range p.Sinks {
		if s.Resume != nil {
			batches++
			records += s.Resume.Records
			for _, d := range s.Resume.Pending {
				dests[s.Name+"."+d] = true
			}
		}
		for _, b := range append(append([]Batch(nil), s.Adopt...), s.Repairs...) {
			batches++
			records += b.Records
			for _, d := range b.Pending {
				dests[s.Name+"."+d] = true
			}
		}
		batches += s.New.Batches
		records += s.New.Records
		if s.New.Batches > 0 {
			for _, d := range s.New.Destinations {
				dests[s.Name+"."+d] = true
			}
		}
	}
	return batches, records, len(dests)
}

// Encode renders a plan file.
func Encode(p *Plan) ([]byte, error) {
	return json.MarshalIndent(p, "", "  ")
}

// Decode reads a plan file.
func Decode(data []byte) (*Plan, error) {
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("not a streamctl plan file: %v", err)
	}
	if p.FormatVersion == 0 || p.ConfigHash == "" {
		return nil, fmt.Errorf("not a streamctl plan file")
	}
	if p.FormatVersion > FormatVersion {
		return nil, fmt.Errorf("the plan file has format version %d, written by a newer streamctl", p.FormatVersion)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("the plan file is not consistent (edited or corrupt?): %v", err)
	}
	return &p, nil
}
