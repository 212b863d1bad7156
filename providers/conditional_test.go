package providers_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/logged"
)

// ignoring is a store that ignores the conditions of conditional writes, as
// older MinIO, Ceph and some gateways do: every write just replaces.
type ignoring struct {
	providers.Storage
	ignoreCreate, ignoreMatch bool
}

func (s ignoring) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	if !s.ignoreCreate {
		return s.Storage.PutIfAbsent(ctx, key, data)
	}
	if err := providers.Put(ctx, s.Storage, key, data); err != nil {
		return "", err
	}
	info, err := s.Stat(ctx, key)
	return info.Version, err
}

func (s ignoring) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if !s.ignoreMatch {
		return s.Storage.PutIfMatch(ctx, key, data, version)
	}
	if err := providers.Put(ctx, s.Storage, key, data); err != nil {
		return "", err
	}
	info, err := s.Stat(ctx, key)
	return info.Version, err
}

func TestProbeConditionalWrites(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store func(providers.Storage) providers.Storage
		want  string
	}{
		{"honoured", func(s providers.Storage) providers.Storage { return s }, ""},
		{"If-None-Match ignored", func(s providers.Storage) providers.Storage { return ignoring{Storage: s, ignoreCreate: true} }, "a second create-only write (If-None-Match: *) of one key succeeded"},
		{"If-Match ignored", func(s providers.Storage) providers.Storage { return ignoring{Storage: s, ignoreMatch: true} }, "a write with a stale version (If-Match) succeeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := tc.store(local.New(dir))
			err := providers.ProbeConditionalWrites(context.Background(), s, "_streamctl/.probe")
			var ce *providers.ConditionError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("a store that honours conditions failed the probe: %v", err)
			case tc.want != "" && (!errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), s.Describe()) || !strings.Contains(err.Error(), "skip_conditional_write_check")):
				t.Fatalf("got %v, want a ConditionError naming the store and %q", err, tc.want)
			}
			var left []string
			local.New(dir).List(context.Background(), "", func(info providers.ObjectInfo) error {
				left = append(left, info.Key)
				return nil
			})
			if len(left) > 0 {
				t.Errorf("the probe left %v", left)
			}
		})
	}
}

// trusted is a store whose block skips the check of conditional writes.
type trusted struct{ providers.Storage }

func (s trusted) Features() providers.Features {
	f := s.Storage.Features()
	f.ConditionalWritesUnchecked = true
	return f
}

// TestProbeSkippedWhereTheStoreSaysSo: a store declaring its conditional
// writes unchecked (skip_conditional_write_check = true) is not probed,
// also behind the fault and debug-log wrappers, which pass its Features
// through; without the declaration, the store that ignores conditions is
// refused through them too.
func TestProbeSkippedWhereTheStoreSaysSo(t *testing.T) {
	wrappers := map[string]func(providers.Storage) providers.Storage{
		"bare":   func(s providers.Storage) providers.Storage { return s },
		"faulty": func(s providers.Storage) providers.Storage { return faulty.Wrap(s) },
		"logged": func(s providers.Storage) providers.Storage { return logged.Wrap(s, logged.NewLog(io.Discard)) },
	}
	for name, wrap := range wrappers {
		t.Run(name, func(t *testing.T) {
			ignores := ignoring{Storage: local.New(t.TempDir()), ignoreCreate: true}
			if err := providers.ProbeConditionalWrites(context.Background(), wrap(trusted{ignores}), "_streamctl/.probe"); err != nil {
				t.Errorf("a store trusted by its block was probed: %v", err)
			}
			var ce *providers.ConditionError
			if err := providers.ProbeConditionalWrites(context.Background(), wrap(ignores), "_streamctl/.probe"); !errors.As(err, &ce) {
				t.Errorf("a store ignoring If-None-Match, not trusted: got %v, want a ConditionError", err)
			}
		})
	}
}
