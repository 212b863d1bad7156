package config

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

func shardsConfig(shards string, extra string) string {
	return `
source "generate" "orders" {
  partitions            = 8
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  ` + shards + `
  destination "local" "lake" {
    path = "lake"
  }
}
sink "other" {
  source = source.generate.orders
  destination "local" "lake" {
    path = "other"
  }
}
` + extra
}

// A sink with shards = N stands for N sinks named <sink>/shard-<k>, which
// share its destinations; -target and the commands find them by the sink's
// name.
func TestShardsExpand(t *testing.T) {
	cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": shardsConfig("shards = 3", "")}), all.Kinds(), Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var names []string
	for _, s := range cfg.Sinks {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "orders/shard-0 orders/shard-1 orders/shard-2 other" {
		t.Fatalf("sinks %s", got)
	}
	s := cfg.Sinks[2]
	if s.Shard == nil || s.Shard.Sink != "orders" || s.Shard.Index != 2 || s.Shard.Count != 3 || s.Declared() != "orders" || len(s.Destinations) != 1 {
		t.Fatalf("shard 2: %+v", s)
	}
	if n := len(cfg.Declared("orders")); n != 3 {
		t.Fatalf("Declared(orders) = %d sinks", n)
	}
	if other := cfg.Sink("other"); other == nil || other.Shard != nil || other.Shards != 1 {
		t.Fatalf("other: %+v", other)
	}
	// shards = 1 is a sink not sharded.
	cfg, diags = Load(writeFiles(t, map[string]string{"main.hcl": shardsConfig("shards = 1", "")}), all.Kinds(), Inputs{})
	if diags.HasErrors() || cfg.Sink("orders") == nil || cfg.Sink("orders").Shard != nil {
		t.Fatalf("shards = 1: %v %+v", diags, cfg.Sinks)
	}
}

func TestShardsRefused(t *testing.T) {
	for _, c := range []struct{ shards, extra, summary string }{
		{"shards = 0", "", "Invalid shards"},
		{"shards = 1025", "", "Invalid shards"},
		{"shards = 2", "moved {\n  from = sink.old\n  to = sink.orders\n}\n", "Moved block on a sharded sink"},
	} {
		_, diags := Load(writeFiles(t, map[string]string{"main.hcl": shardsConfig(c.shards, c.extra)}), all.Kinds(), Inputs{})
		wantDiag(t, diags, c.summary)
	}
}
