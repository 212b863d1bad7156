package command

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

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

type committedFile struct {
	Destination string `json:"destination"`
	Batch       int64  `json:"batch"`
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	Records     int64  `json:"records"`
	SHA256      string `json:"sha256"`
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
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	name := fs.Arg(0)
	if cfg.Sink(name) == nil {
		return c.errorf("the configuration has no sink %q", name)
	}
	ctx, stop := signalContext()
	defer stop()
	ws, err := openWorkspace(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer ws.Close()
	var out []committedFile
	found := destination == ""
	for _, s := range ws.sinks {
		if s.Name != name {
			continue
		}
		for _, d := range s.Destinations {
			if destination != "" && d.Name != destination {
				continue
			}
			found = true
			manifests, err := engine.ReadManifests(ctx, d.Storage, s.Name, 0)
			if err != nil {
				return c.errorf("read the manifests of %s: %v", d.Name, err)
			}
			for _, m := range manifests {
				for _, fe := range m.Files {
					out = append(out, committedFile{d.Name, m.Batch, fe.Path, fe.Size, fe.Records, fe.SHA256})
				}
			}
		}
	}
	if !found {
		return c.errorf("sink %q has no destination %q", name, destination)
	}
	if asJSON {
		if out == nil {
			out = []committedFile{}
		}
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return ExitOK
	}
	w := tabwriter.NewWriter(c.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DESTINATION\tBATCH\tRECORDS\tBYTES\tPATH")
	for _, f := range out {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\n", f.Destination, f.Batch, f.Records, f.Size, f.Path)
	}
	w.Flush()
	return ExitOK
}
