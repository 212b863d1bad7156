package command

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/pipeline"
)

func layoutOf(s *config.Sink) pipeline.Layout {
	return pipeline.Layout{
		Format:          s.Format,
		MaxFileRecords:  s.MaxFileRecords,
		Columns:         s.Columns,
		Compression:     s.Compression,
		PartitionBy:     s.PartitionBy,
		RouteBy:         s.RouteBy,
		RowGroupRecords: int64(s.RowGroupRecords),
		OnInvalid:       s.OnInvalid,
	}
}

// layoutHash identifies the settings that decide which files a batch gives.
func layoutHash(s *config.Sink) string {
	data, _ := json.Marshal(struct {
		Format, Compression, RouteBy, OnInvalid string
		PartitionBy                             []string
		MaxFileRecords                          int64
		RowGroupRecords                         int
		Columns                                 []config.Column
	}{s.Format, s.Compression, s.RouteBy, s.OnInvalid, s.PartitionBy, s.MaxFileRecords, s.RowGroupRecords, s.Columns})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
