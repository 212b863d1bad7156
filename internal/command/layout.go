package command

import (
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
