package files

import (
	"context"
	"path/filepath"

	"github.com/streamctl/streamctl/providers"
)

// Config is the body of a `source "files" "NAME"` block.
type Config struct {
	Path   string `hcl:"path"`
	Format string `hcl:"format,optional"`
	// Dir is the configuration directory the glob is relative to.
	Dir string
}

// Kind declares `source "files"`.
var Kind = &providers.Kind{
	Type: "files",
	Source: &providers.SourceRole{
		Body: providers.Body{
			Summary: "Append-only files matched by a glob: one partition per file, offset = record number.",
			Description: "Files may grow (new lines appended) and new files may appear; a file must never be " +
				"rewritten or truncated, since committed offsets point into it. A file's partition is named by its path " +
				"relative to the pattern's root folder (`in` for `in/*/*.jsonl`), the same wherever streamctl runs from.",
			Config: Config{},
			Attributes: map[string]providers.Attribute{
				"path": {Example: `"in/*.jsonl"`, Description: "A glob of the input files, relative to the configuration directory."},
				"format": {Default: `"jsonl"`, Example: `"jsonl"`, Allowed: []string{FormatJSONL, FormatCSV, FormatLines, FormatAvro},
					Description: "The input format: `jsonl`, one JSON object per line (the offset is the line number); " +
						"`csv`, a header row then one record per line, keyed by the header's names (JSON numbers become numbers, `true` and `false` booleans, empty fields null, anything else strings; a quoted field may not span lines; the offset is the line number); " +
						"`lines`, each line as the record `{\"line\": \"<the line>\"}`; " +
						"`avro`, Avro Object Container Files (codecs null, deflate, snappy, zstandard), each record decoded into JSON as the " +
						"[schema registry guide](schema-registry.md#mapping) says (the offset is the record's index in the file; a block is read once written whole)."},
			},
			Decode: decode,
			Example: `source "files" "clicks" {
  path   = "in/*.jsonl"
  format = "jsonl"
}

sink "clicks" {
  source = source.files.clicks
  format = "parquet"

  column "user_id" {
    type = "int64"
  }
  column "url" {
    type = "string"
  }

  destination "local" "lake" {
    path = "out/clicks"
  }
}
`,
		},
		Open: func(_ context.Context, cfg any) (providers.Source, error) {
			c := cfg.(*Config)
			return &Source{Dir: c.Dir, Pattern: c.Path, Format: c.Format}, nil
		},
	},
}

func decode(b providers.Block) any {
	c := &Config{}
	if !b.Decode(c) {
		return nil
	}
	if c.Format == "" {
		c.Format = FormatJSONL
	}
	if c.Format != FormatJSONL && c.Format != FormatCSV && c.Format != FormatLines && c.Format != FormatAvro {
		b.Errorf("", "Unsupported input format", "The files source reads format \"jsonl\", \"csv\" (a header row), \"lines\" (each line as {\"line\": …}) or \"avro\" (Object Container Files), not %q.", c.Format)
	}
	if _, err := filepath.Match(c.Path, ""); err != nil {
		b.Errorf("", "Invalid path pattern", "path %q is not a valid glob: %v.", c.Path, err)
	}
	c.Dir = b.Dir()
	return c
}
