package faulty

import (
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/providers/storagetest"
)

// TestPassesEveryCapabilityThroughWithFaults: a wrapped store has exactly
// the capabilities of the store it wraps, each wrapped so that its calls can
// fail, and a fault test takes the path a user's store takes.
func TestPassesEveryCapabilityThroughWithFaults(t *testing.T) {
	storagetest.Wrapper(t, func(s providers.Storage) providers.Storage { return Wrap(s) },
		mem.New("x"), mem.NewStaging("x"), local.New(t.TempDir()), unchecked{mem.New("x")})
}

// unchecked is a store whose block skips the check of conditional writes.
type unchecked struct{ providers.Storage }

func (s unchecked) Features() providers.Features {
	f := s.Storage.Features()
	f.ConditionalWritesUnchecked = true
	return f
}
