package local

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Config is the body of a `destination "local" "NAME"` block.
type Config struct {
	Path string `hcl:"path"`
	// Dir is the configuration directory the path is relative to.
	Dir string
}

// StateConfig is the body of a `state "local"` block.
type StateConfig struct {
	Path string `hcl:"path,optional"`
}

// DefaultStatePath is the state file of a configuration without a state
// block, relative to its directory.
const DefaultStatePath = ".streamctl/state.json"

// Kind declares `destination "local"` and `state "local"`.
var Kind = &providers.Kind{
	Type: "local",
	Destination: &providers.DestinationRole{
		Body: providers.Body{
			Summary:     "A folder on a local or mounted filesystem.",
			Description: "Files are staged under `_temporary/<batch>/`, fsynced and renamed into place; the manifest is created exclusively.",
			Config:      Config{},
			Paths:       []string{"path"},
			Attributes: map[string]providers.Attribute{
				"path": {Example: `"out/lake"`, Description: "The destination's root folder, relative to the configuration directory."},
			},
			Decode: decode,
		},
		Open: func(_ context.Context, cfg any) (providers.Storage, error) {
			return New(cfg.(*Config).Path), nil
		},
		Location: func(cfg any) string { return "file://" + cfg.(*Config).Path },
		TableLocation: func(cfg any) (string, map[string]string, error) {
			abs, err := filepath.Abs(cfg.(*Config).Path)
			if err != nil {
				return "", nil, err
			}
			return "file://" + filepath.ToSlash(abs), nil, nil
		},
	},
	State: &providers.StateRole{
		Body: providers.Body{
			Summary: "The state in a local file, locked with a lock file beside it.",
			Description: "The file is replaced atomically (write to a temporary file, fsync, rename, " +
				"fsync of the folder); the previous version is kept as `<path>.backup`. " +
				"The lock is `<path>.lock`, created exclusively.",
			Config: StateConfig{},
			Paths:  []string{"path"},
			Attributes: map[string]providers.Attribute{
				"path": {Default: `"` + DefaultStatePath + `"`, Example: `"` + DefaultStatePath + `"`,
					Description: "The state file, relative to the configuration directory."},
			},
			Decode: decodeState,
			Example: `streamctl {
  state "local" {
    path = "state/orders.json"
  }
}
`,
		},
		File: func(cfg any) string { return cfg.(*StateConfig).Path },
	},
}

func decode(b providers.Block) any {
	c := &Config{}
	if !b.Decode(c) {
		return nil
	}
	if strings.TrimSpace(c.Path) == "" {
		b.Errorf("", "Invalid path", "path must not be empty.")
		return nil
	}
	c.Path = b.Path(c.Path)
	c.Dir = b.Dir()
	return c
}

// decodeState resolves the path, DefaultStatePath when unset.
func decodeState(b providers.Block) any {
	c := &StateConfig{}
	if !b.Decode(c) {
		return nil
	}
	if c.Path == "" {
		c.Path = DefaultStatePath
	}
	c.Path = b.Path(c.Path)
	return c
}
