package workspace

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/state"
)

// schemaSource is a source whose values are read through a schema registry
// (providers/kafka): plan checks the subject's versions against the sink's
// columns, or derives them from the versions.
type schemaSource interface {
	SchemaVersions(ctx context.Context) ([]wire.Version, error)
}

// resolveSchema checks the registry subject's versions against the sink's
// columns before anything is written: declared columns against each
// version registered since the one the sink last wrote with (the latest
// alone when the state records none), and with columns = "from_schema"
// derives the columns that hold every version's records. Those are the
// latest's, unless pinned names the layout of a batch in flight or of a
// saved plan: then the versions up to the one that gave it, so that the
// batch is written as it was planned. An incompatible version is an error
// naming the subject, version and field.
//
// It returns, when a batch in flight pins older columns than the latest
// version's, the reason the plan finishes that batch alone.
func (w *Workspace) resolveSchema(ctx context.Context, cs *config.Sink, es *engine.Sink, st *state.Sink, pinned string) (resumeOnly string, err error) {
	src, ok := w.sources[cs.Source].(schemaSource)
	if !ok || cs.ColumnsFrom == "" && len(cs.Columns) == 0 {
		return "", nil
	}
	versions, err := src.SchemaVersions(ctx)
	if err != nil {
		return "", fmt.Errorf("check the schema of source.%s: %w", cs.Source, err)
	}
	if len(versions) == 0 {
		if cs.ColumnsFrom != "" {
			return "", fmt.Errorf("its columns come from the schema registry (columns = %q), which has no version of the topic's subject yet: register the schema (a producer with the registry's serializer does) and plan again", cs.ColumnsFrom)
		}
		return "", nil
	}
	if cs.ColumnsFrom == "" {
		last := lastSchemaVersion(st)
		check := versions[len(versions)-1:]
		if last > 0 {
			check = nil
			for _, v := range versions {
				if v.Version > last {
					check = append(check, v)
				}
			}
		}
		for _, v := range check {
			if err := wire.CheckDeclared(cs.Columns, v); err != nil {
				return "", fmt.Errorf("the schema registry has a version its declared columns cannot hold: %w", err)
			}
		}
		es.LayoutSettings = settingsWithSchema(cs.Layout, versions[len(versions)-1])
		return "", nil
	}
	inFlight := false
	if pinned == "" && st != nil && st.InFlight != nil {
		pinned, inFlight = st.InFlight.Layout, true
	}
	// The latest version's columns first: an incompatible version is
	// refused even when a pinned batch was planned before it.
	cols, err := derivedColumns(cs, versions)
	if err != nil {
		return "", err
	}
	upTo := len(versions)
	layout := cs.Layout
	layout.Columns = cols
	if hash := layout.Hash(); pinned != "" && hash != pinned {
		for k := len(versions) - 1; k >= 1; k-- {
			older, err := derivedColumns(cs, versions[:k])
			if err != nil {
				break
			}
			l := cs.Layout
			l.Columns = older
			if l.Hash() == pinned {
				cols, upTo = older, k
				break
			}
		}
	}
	layout.Columns = cols
	es.Layout.Columns = cols
	es.LayoutHash = layout.Hash()
	es.LayoutSettings = settingsWithSchema(layout, versions[upTo-1])
	if inFlight && upTo < len(versions) {
		latest := versions[len(versions)-1]
		return fmt.Sprintf("the batch in flight is finished with the columns of subject %s version %d it was started with; the pending records are written with the columns of version %d by the next apply", latest.Subject, versions[upTo-1].Version, latest.Version), nil
	}
	return "", nil
}

// derivedColumns are the columns of versions, checked as declared columns
// are, in the configuration's spelling of their types.
func derivedColumns(cs *config.Sink, versions []wire.Version) ([]format.Column, error) {
	cols, err := wire.DeriveColumns(versions)
	if err != nil {
		return nil, fmt.Errorf("the schema registry has a version whose records its columns (from_schema) cannot hold: %w", err)
	}
	last := versions[len(versions)-1]
	if err := format.ValidateColumns(cols); err != nil {
		return nil, fmt.Errorf("subject %s version %d: its fields cannot be columns: %v; declare the columns with column blocks instead", last.Subject, last.Version, err)
	}
	for i := range cols {
		t, _ := format.ParseType(cols[i].Type)
		cols[i].Type = t.String()
	}
	if err := format.CheckNested(cols, cs.Format); err != nil {
		return nil, fmt.Errorf("subject %s version %d: its fields cannot be columns of a %s sink: %v; declare the columns with column blocks instead", last.Subject, last.Version, cs.Format, err)
	}
	return cols, nil
}

// settingsWithSchema are the layout settings the state keeps for a sink
// written with l's columns, checked against or derived from version v: the
// version is kept beside them, so that plan checks only the versions
// registered since. It is not hashed: the columns it gave are.
func settingsWithSchema(l config.Layout, v wire.Version) map[string]string {
	s := l.Settings()
	s["schema"] = schemaSetting(v)
	return s
}

// schemaSetting is a version as the state's layout settings keep it.
func schemaSetting(v wire.Version) string {
	return strconv.Quote(v.Subject) + " version " + strconv.Itoa(v.Version)
}

// lastSchemaVersion is the registry version the sink's latest batches were
// written with, 0 when the state does not record one (a state written
// before streamctl recorded it, or a new sink).
func lastSchemaVersion(st *state.Sink) int {
	if st == nil || st.Layout == nil {
		return 0
	}
	s := st.Layout.Settings["schema"]
	i := strings.LastIndex(s, " version ")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(s[i+len(" version "):])
	return n
}
