package command

import (
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// The Parquet footer's created_by names this streamctl's version.
func TestParquetCreatedByNamesTheVersion(t *testing.T) {
	if format.Version != Version {
		t.Fatalf("format.Version = %q, command.Version = %q", format.Version, Version)
	}
	want := "streamctl version " + Version + " (build " + format.Build + ")"
	if got := format.CreatedBy(); got != want {
		t.Fatalf("created_by = %q, want %q", got, want)
	}
}
