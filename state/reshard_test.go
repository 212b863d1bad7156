package state

import (
	"strings"
	"testing"
)

func shardedState() *State {
	s := New("test")
	for k, parts := range [][]string{{"0", "2"}, {"1", "3"}} {
		ss := NewSink(SourceRef{Type: "generate", Name: "orders", Identity: "g"})
		ss.Shard = &Shard{Sink: "orders", Index: k, Count: 2}
		ss.NextBatch = int64(3 + k)
		for _, p := range parts {
			ss.Offsets[p] = 100 + int64(k)
		}
		ss.Destinations["lake"] = &Destination{LastBatch: ss.NextBatch - 1}
		s.Sinks[ShardName("orders", k)] = ss
	}
	s.Sinks["other"] = NewSink(SourceRef{Type: "generate", Name: "orders", Identity: "g"})
	return s
}

func TestReshardDerivesCheckpoints(t *testing.T) {
	s := shardedState()
	names, count := s.Checkpoints("orders")
	if count != 2 || strings.Join(names, " ") != "orders/shard-0 orders/shard-1" {
		t.Fatalf("Checkpoints = %v, %d", names, count)
	}
	r, err := NewReshard(s, "orders", 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.From != 2 || r.To != 3 || r.NextBatch != 4 || len(r.Offsets) != 4 || strings.Join(r.Destinations, ",") != "lake" {
		t.Fatalf("reshard %+v", r)
	}
	shards := r.Shards("orders")
	if len(shards) != 3 {
		t.Fatalf("%d shards", len(shards))
	}
	// Partition p goes to shard p mod 3, with its committed offset.
	for p, k := range map[string]int{"0": 0, "1": 1, "2": 2, "3": 0} {
		ss := shards[ShardName("orders", k)]
		if ss.Offsets[p] != r.Offsets[p] || ss.Shard.Index != k || ss.Shard.Count != 3 || ss.NextBatch != 4 {
			t.Errorf("partition %s in shard %d: %+v", p, k, ss)
		}
		if d := ss.Destinations["lake"]; d == nil || d.LastBatch != 3 || d.From != 4 {
			t.Errorf("shard %d: destination %+v", k, d)
		}
	}
	moves := r.Moves("orders")
	if len(moves) != 2 || moves[0].Partition != "2" || moves[0].To != "orders/shard-2" || moves[1].Partition != "3" || moves[1].From != "orders/shard-1" || moves[1].To != "orders/shard-0" {
		t.Fatalf("moves %+v", moves)
	}
	// Back to one: the sink's own checkpoint, not a shard.
	one, err := NewReshard(s, "orders", 1)
	if err != nil {
		t.Fatal(err)
	}
	s.ApplyReshard("orders", one)
	if _, count := s.Checkpoints("orders"); count != 1 || s.Sinks["orders"] == nil || s.Sinks["orders"].Shard != nil || len(s.Sinks["orders"].Offsets) != 4 || s.Sinks["other"] == nil {
		t.Fatalf("after 2 → 1: %v", s.SinkNames())
	}
}

func TestReshardRefused(t *testing.T) {
	s := shardedState()
	s.Sinks["orders/shard-1"].InFlight = &Batch{ID: 4}
	if _, err := NewReshard(s, "orders", 4); err == nil || !strings.Contains(err.Error(), "batch 4 in flight") || !strings.Contains(err.Error(), "set shards = 2 back") {
		t.Fatalf("in flight: %v", err)
	}
	s = shardedState()
	s.Sinks["orders/shard-0"].Destinations["lake"].LastBatch = 0
	if _, err := NewReshard(s, "orders", 4); err == nil || !strings.Contains(err.Error(), "misses committed batches") {
		t.Fatalf("behind: %v", err)
	}
}

// A change in progress is part of the state document, and refused when
// it is not one.
func TestReshardEncoded(t *testing.T) {
	s := shardedState()
	r, err := NewReshard(s, "orders", 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Reshards = map[string]*Reshard{"orders": r}
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Reshards["orders"]; got == nil || got.To != 3 || got.Offsets["3"] != 101 {
		t.Fatalf("decoded %+v", got)
	}
	bad := strings.Replace(string(data), `"to": 3`, `"to": 2`, 1)
	if _, err := Decode([]byte(bad)); err == nil {
		t.Fatal("a change from 2 to 2 shards was decoded")
	}
}

// A checkpoint that committed no batch yet (it recorded where it starts)
// holds no destination: the others' still carry over.
func TestReshardWithIdleShard(t *testing.T) {
	s := shardedState()
	idle := s.Sinks["orders/shard-1"]
	idle.NextBatch, idle.Destinations = 0, map[string]*Destination{}
	r, err := NewReshard(s, "orders", 3)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Destinations, ",") != "lake" || r.NextBatch != 3 {
		t.Fatalf("reshard %+v", r)
	}
}
