package planner

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/streamctl/streamctl/state"
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
	MaxBatches int64 `json:"max_batches,omitempty"`
	// Targeted is set when -target or -exclude selected the sinks planned:
	// the others are left out, and the renderings say so.
	Targeted bool        `json:"targeted,omitempty"`
	Sinks    []*SinkPlan `json:"sinks"`
	// Removed are sinks the state holds that the configuration no longer
	// declares: nothing is done to them, and nothing of theirs is deleted.
	Removed []RemovedSink `json:"removed_sinks,omitempty"`
	// Reshards are the sinks whose checkpoints apply splits again into
	// another number of shards, before any of their batches.
	Reshards []Reshard `json:"reshards,omitempty"`
}

// Reshard is a change of a sink's number of shards: its committed offsets
// are split again between the new layout's checkpoints (state.Reshard).
type Reshard struct {
	Sink string `json:"sink"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// InProgress: a run that died logged the change; apply finishes it.
	InProgress bool `json:"in_progress,omitempty"`
	// Partitions counts the partitions with a committed offset.
	Partitions int `json:"partitions"`
	// Moves are the partitions whose offset goes to another checkpoint.
	Moves []state.Move `json:"moves"`
}

// RemovedSink is a sink the state holds and the configuration does not.
type RemovedSink struct {
	Name             string   `json:"name"`
	Source           string   `json:"source"`
	CommittedBatches int64    `json:"committed_batches"`
	CommittedRecords int64    `json:"committed_records"`
	Destinations     []string `json:"destinations"`
	InFlight         *int64   `json:"in_flight_batch,omitempty"`
	// SupersededBy is the configured sink a move of this one was meant to
	// rename it to: the move was interrupted before the state was renamed,
	// and that sink, which owns the destinations, adopted the batches.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Leftovers are SupersededBy's destinations that still hold this sink's
	// manifests, under _streamctl/<Name>/.
	Leftovers []string `json:"leftover_manifests_in,omitempty"`
}

// Changes reports whether applying the plan would do anything.
func (p *Plan) Changes() bool {
	if len(p.Reshards) > 0 {
		return true
	}
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
		// The shards of a sink share its destinations.
		name := s.Name
		if s.Shard != nil {
			name = s.Shard.Sink
		}
		if s.Resume != nil {
			batches++
			records += s.Resume.Records
			for _, d := range s.Resume.Pending {
				dests[name+"."+d] = true
			}
		}
		for _, b := range append(append([]Batch(nil), s.Adopt...), s.Repairs...) {
			batches++
			records += b.Records
			for _, d := range b.Pending {
				dests[name+"."+d] = true
			}
		}
		batches += s.New.Batches
		records += s.New.Records
		if s.New.Batches > 0 {
			for _, d := range s.New.Destinations {
				dests[name+"."+d] = true
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
