package command

import (
	"flag"
	"io"
	"slices"
	"strings"

	"github.com/streamctl/streamctl/internal/engine"
)

// FilesCommand lists the committed files of a sink, from the manifests: what
// a reader that wants exactly-once reads should read.
type FilesCommand struct{ *Meta }

func (c *FilesCommand) Synopsis() string { return "List a sink's committed files" }
func (c *FilesCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] files [options] SINK

  Lists the files the manifests of SINK commit, batch by batch: exactly the
  files a reader should read to see every record once, as Spark readers honour
  _spark_metadata. Files of a batch still in flight are not listed.

Options:

  -destination=NAME   Only this destination.
  -json               Print one JSON document.
`+configFlagsHelp) + "\n"
}

func (c *FilesCommand) Run(args []string) int {
	var f configFlags
	var destination string
	var asJSON bool
	fs := flag.NewFlagSet("files", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	fs.StringVar(&destination, "destination", "", "")
	fs.BoolVar(&asJSON, "json", false, "")
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() != 1 {
		return c.errorf("files needs exactly one sink name\n\n%s", c.Help())
	}
	v := c.newFilesView(asJSON, f.noColor)
	cfg, ok := c.loadConfigView(&f, &view{v})
	if !ok {
		return ExitError
	}
	name := fs.Arg(0)
	if len(cfg.Declared(name)) == 0 {
		return failf(v, "the configuration has no sink %q", name)
	}
	ctx, stop := signalContext()
	defer stop()
	ws, err := c.openWorkspace(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	defer ws.Close()
	var out []engine.CommittedFile
	found := destination == ""
	for _, s := range ws.Sinks {
		// A sharded sink's files are its shards', of every layout it had.
		if s.Name != name && (s.Shard == nil || s.Shard.Sink != name || s.Shard.Index > 0) {
			continue
		}
		for _, d := range s.Destinations {
			if destination != "" && d.Name != destination {
				continue
			}
			found = true
			folders := []string{s.Name}
			if s.Shard == nil || s.Shard.Sink == name {
				more, err := engine.ManifestFolders(ctx, d.Storage, name)
				if err != nil {
					return failf(v, "list the manifests of %s: %v", d.Name, err)
				}
				if s.Shard != nil {
					folders = nil
				}
				folders = slices.Compact(slices.Sorted(slices.Values(append(folders, more...))))
			}
			for _, folder := range folders {
				files, err := engine.CommittedFiles(ctx, d, folder)
				if err != nil {
					return failf(v, "%v", err)
				}
				out = append(out, files...)
			}
		}
	}
	if !found {
		return failf(v, "sink %q has no destination %q", name, destination)
	}
	v.files(out)
	return ExitOK
}
