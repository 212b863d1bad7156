// Package all names every provider streamctl is built with. The commands pass
// Kinds to the configuration loader and open sources, destinations and state
// backends through it; the reference is generated from it. Nothing registers
// itself: this list is the only one.
//
// # Adding a provider
//
// A provider is one package under providers/ and one line here:
//
//  1. Implement providers.Source or providers.Storage (run
//     providers/storagetest's suite against a Storage).
//  2. Declare a config struct whose hcl tags are the block's attributes, and
//     export a Kind (see providers/s3/kind.go): its Type, and for each role it
//     plays (Source, Destination, State) the role's Body, which documents
//     every attribute with an example, names its Secrets and Paths, and
//     decodes the block when gohcl alone is not enough (defaults, the
//     environment, checks that span attributes); and the role's Open.
//     A Validate() error method on the config is called by the loader, each
//     error naming its attribute first.
//  3. Add the Kind to Kinds below. Its place is its place in the reference.
//
// internal/config's schema tests then probe every documented attribute,
// secret and example of the new blocks against the loader.
package all

import (
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
	"github.com/streamctl/streamctl/providers/files"
	"github.com/streamctl/streamctl/providers/gcs"
	"github.com/streamctl/streamctl/providers/generate"
	"github.com/streamctl/streamctl/providers/kafka"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/s3"
)

// Kinds returns every provider kind, in the order the reference lists them:
// sources, then destinations and state backends.
func Kinds() providers.Kinds {
	return providers.Kinds{
		generate.Kind,
		files.Kind,
		kafka.Kind,
		local.Kind,
		s3.Kind,
		azblob.Kind,
		gcs.Kind,
	}
}
