package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeRefusesNumbersOutOfRange: batch numbers and offsets near 2^63
// would wrap when added to, and negative ones name no batch: Decode refuses
// them with the reason.
func TestDecodeRefusesNumbersOutOfRange(t *testing.T) {
	const lineage = "5d0b5e0e-8c1a-4b8a-9f5e-1c2d3e4f5a6b"
	sink := func(fields string) string {
		return fmt.Sprintf(`{"version": 1, "lineage": %q, "serial": 1, "sinks": {"orders": {"source": {"type": "generate", "name": "orders", "identity": "x"}, %s}}}`, lineage, fields)
	}
	history := func(id, start, end string) string {
		return fmt.Sprintf(`"next_batch": 1, "history": [{"id": %s, "ranges": [{"partition": "0", "start": %s, "end": %s}], "records": 1}]`, id, start, end)
	}
	for _, tt := range []struct{ name, data, want string }{
		{"next_batch near 2^63", sink(`"next_batch": 9223372036854775807`), "next_batch 9223372036854775807 is out of range"},
		{"next_batch above 2^53", sink(`"next_batch": 9007199254740993`), "next_batch"},
		{"negative next_batch", sink(`"next_batch": -1`), "next_batch -1 is out of range"},
		{"negative offset", sink(`"offsets": {"0": -5}`), `committed offset -5 of partition "0"`},
		{"offset near 2^63", sink(`"offsets": {"0": 9223372036854775807}`), "committed offset"},
		{"negative history id", sink(history("-3", "0", "1")), "history entry 1: id -3"},
		{"huge history id", sink(history("9223372036854775000", "0", "1")), "history entry 1: id"},
		{"negative range start", sink(history("0", "-1", "1")), "not a range of offsets"},
		{"range end before start", sink(history("0", "10", "5")), "[10, 5)"},
		{"in-flight id near 2^63", sink(`"in_flight": {"id": 9223372036854775807, "ranges": [], "records": 0}`), "in_flight batch: id"},
		{"negative in-flight records", sink(`"in_flight": {"id": 0, "ranges": [], "records": -1}`), "in_flight batch"},
		{"destination last_batch", sink(`"destinations": {"a": {"last_batch": -2, "from": 0}}`), `destination "a"`},
		{"destination from", sink(`"destinations": {"a": {"last_batch": 0, "from": -1}}`), `destination "a"`},
		{"null destination", sink(`"destinations": {"a": null}`), `destination "a" is null`},
		{"negative counts", sink(`"committed_records": -1`), "negative"},
		{"negative serial", fmt.Sprintf(`{"version": 1, "lineage": %q, "serial": -1, "sinks": {}}`, lineage), "serial -1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.data))
			var de *DecodeError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want a DecodeError containing %q, got %v", tt.want, err)
			}
			if !strings.Contains(err.Error(), `sink "orders"`) && !strings.Contains(tt.name, "serial") {
				t.Errorf("the error does not name the sink: %v", err)
			}
		})
	}
	ok := sink(`"next_batch": 9007199254740992, "offsets": {"0": 4611686018427387904}, "destinations": {"a": {"last_batch": -1, "from": 0}}`)
	if _, err := Decode([]byte(ok)); err != nil {
		t.Fatalf("a state at the bounds: %v", err)
	}
}

// TestLocalBackendRespectsReadOnlyState: a state file the user made
// read-only is not replaced; a writable one keeps its mode.
func TestLocalBackendRespectsReadOnlyState(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []fs.FileMode{0o400, 0o444, 0o440} {
		t.Run(fmt.Sprintf("%04o", mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			b := NewLocal(path)
			v, err := b.Write(ctx, []byte("one"), "")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			_, err = b.Write(ctx, []byte("two"), v)
			want := fmt.Sprintf("the state file %s is read-only; make it writable to apply", path)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("write over a read-only state: want %q, got %v", want, err)
			}
			if errors.Is(err, ErrConflict) {
				t.Errorf("a read-only state is reported as a conflict: %v", err)
			}
			data, _ := os.ReadFile(path)
			fi, _ := os.Stat(path)
			if string(data) != "one" || fi.Mode().Perm() != mode {
				t.Errorf("the read-only state is now %q with mode %04o", data, fi.Mode().Perm())
			}
			if _, err := os.Stat(path + ".backup"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a backup was made of a state that was not replaced: %v", err)
			}
		})
	}
	t.Run("writable modes are kept", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		b := NewLocal(path)
		v, err := b.Write(ctx, []byte("one"), "")
		if err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("a new state has mode %04o, want 0600", fi.Mode().Perm())
		}
		if err := os.Chmod(path, 0o640); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Write(ctx, []byte("two"), v); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Errorf("the state's mode 0640 became %04o", fi.Mode().Perm())
		}
	})
}
