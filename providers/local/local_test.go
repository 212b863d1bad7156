package local_test

import (
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/storagetest"
)

func TestStorage(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) providers.Storage {
		return local.New(t.TempDir() + "/root")
	})
}
