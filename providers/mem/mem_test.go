package mem

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/storagetest"
)

// TestConformance: the in-memory storage keeps the contract the real stores
// keep, so that engine tests over it mean something.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) providers.Storage {
		return New(strings.ReplaceAll(t.Name(), "/", "-"))
	})
}

// TestStagingConformance: the staging storage keeps the Stager contract too.
func TestStagingConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) providers.Storage {
		return NewStaging(strings.ReplaceAll(t.Name(), "/", "-"))
	})
}
