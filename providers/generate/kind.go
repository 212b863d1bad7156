package generate

import (
	"context"

	"github.com/streamctl/streamctl/providers"
)

// Config is the body of a `source "generate" "NAME"` block.
type Config struct {
	Partitions          int   `hcl:"partitions,optional"`
	RecordsPerPartition int64 `hcl:"records_per_partition"`
	Seed                int64 `hcl:"seed,optional"`
	PayloadBytes        int   `hcl:"payload_bytes,optional"`
}

// Kind declares `source "generate"`.
var Kind = &providers.Kind{
	Type: "generate",
	Source: &providers.SourceRole{
		Body: providers.Body{
			Summary: "Deterministic synthetic records: the same seed, partition and offset always give the same record.",
			Description: "For the quickstart, demos, benchmarks and crash tests. Each partition holds " +
				"`records_per_partition` records; raising it is how new data \"arrives\". Records are JSON objects " +
				"with the fields `id`, `partition`, `offset`, `ts`, `customer_id`, `country`, `amount` and `note`.",
			Config: Config{},
			Attributes: map[string]providers.Attribute{
				"partitions":            {Default: "1", Example: "4", Description: "Number of partitions, from 1 to 100000."},
				"records_per_partition": {Example: "50000", Description: "Records in each partition: offsets `[0, records_per_partition)`."},
				"seed":                  {Default: "0", Example: "42", Description: "Seed of the generator: another seed gives other records."},
				"payload_bytes":         {Default: "0", Example: "16", Description: "Length of the random `note` string of each record, from 0 to 1048576 bytes."},
			},
			Decode: decode,
			Example: `source "generate" "orders" {
  partitions            = 4
  records_per_partition = 50000
  seed                  = 42
  payload_bytes         = 16
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
}
`,
		},
		Open: func(_ context.Context, cfg any) (providers.Source, error) {
			c := cfg.(*Config)
			return &Source{Partitions: c.Partitions, RecordsPerPartition: c.RecordsPerPartition, Seed: c.Seed, PayloadBytes: c.PayloadBytes}, nil
		},
	},
}

// decode applies the defaults of the unset attributes (a null one is unset)
// and checks the ranges.
func decode(b providers.Block) any {
	var raw struct {
		Partitions          *int  `hcl:"partitions,optional"`
		RecordsPerPartition int64 `hcl:"records_per_partition"`
		Seed                int64 `hcl:"seed,optional"`
		PayloadBytes        *int  `hcl:"payload_bytes,optional"`
	}
	if !b.Decode(&raw) {
		return nil
	}
	c := &Config{Partitions: 1, RecordsPerPartition: raw.RecordsPerPartition, Seed: raw.Seed}
	if raw.Partitions != nil {
		c.Partitions = *raw.Partitions
	}
	if raw.PayloadBytes != nil {
		c.PayloadBytes = *raw.PayloadBytes
	}
	if c.Partitions < 1 || c.Partitions > 100000 {
		b.Errorf("", "Invalid partitions", "partitions must be between 1 and 100000, not %d.", c.Partitions)
	}
	if c.RecordsPerPartition < 0 {
		b.Errorf("", "Invalid records_per_partition", "records_per_partition must not be negative.")
	}
	if c.PayloadBytes < 0 || c.PayloadBytes > 1<<20 {
		b.Errorf("", "Invalid payload_bytes", "payload_bytes must be between 0 and 1048576, not %d.", c.PayloadBytes)
	}
	return c
}
