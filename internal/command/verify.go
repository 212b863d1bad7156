package command

import (
	"flag"
	"io"
	"strings"

	"github.com/streamctl/streamctl/internal/engine"
)

// VerifyCommand checks that every destination holds what its manifests say.
type VerifyCommand struct{ *Meta }

func (c *VerifyCommand) Synopsis() string { return "Check destinations against their manifests" }
func (c *VerifyCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] verify [options] [SINK]

  Reads every manifest of every destination (of SINK, or of all sinks) and
  checks that each file it lists exists with the recorded size and SHA-256.
  Reports missing, changed and unlisted files (files that no manifest names,
  which readers honouring manifests ignore). Exits 2 on any finding. For files
  missing or changed, it prints the plan -replace command that writes their
  batches again from the source.

Options:

  -deep               Also count each file's records and compare them with the
                      manifest, and check that destinations of a sink that is
                      not routed hold the same number of records per batch.
  -json               Print the findings as one JSON document.
`+configFlagsHelp) + "\n"
}

func (c *VerifyCommand) Run(args []string) int {
	var f configFlags
	var deep, asJSON bool
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	fs.BoolVar(&deep, "deep", false, "")
	fs.BoolVar(&asJSON, "json", false, "")
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 1 {
		return c.errorf("verify takes at most one sink name\n\n%s", c.Help())
	}
	v := c.newVerifyView(asJSON, f.noColor)
	cfg, ok := c.loadConfigView(&f, &view{v})
	if !ok {
		return ExitError
	}
	if fs.NArg() == 1 && len(cfg.Declared(fs.Arg(0))) == 0 {
		return failf(v, "the configuration has no sink %q", fs.Arg(0))
	}
	ctx, stop := signalContext()
	defer stop()
	ws, err := c.openWorkspace(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	defer ws.Close()

	var total engine.Verification
	// The shards of a sharded sink share its destinations: they are
	// verified together, so that each one's files count as listed.
	var groups [][]*engine.Sink
	for _, s := range ws.Sinks {
		if fs.NArg() == 1 && s.Name != fs.Arg(0) && (s.Shard == nil || s.Shard.Sink != fs.Arg(0)) {
			continue
		}
		if n := len(groups); n > 0 && s.Shard != nil && groups[n-1][0].Shard != nil && groups[n-1][0].Shard.Sink == s.Shard.Sink {
			groups[n-1] = append(groups[n-1], s)
			continue
		}
		groups = append(groups, []*engine.Sink{s})
	}
	for _, g := range groups {
		r, err := engine.VerifyShards(ctx, g, deep)
		if err != nil {
			return failf(v, "%v", err)
		}
		total.Manifests += r.Manifests
		total.Files += r.Files
		total.Findings = append(total.Findings, r.Findings...)
	}
	sharded := map[string]bool{}
	for _, s := range ws.Sinks {
		if s.Shard != nil {
			sharded[s.Shard.Sink] = true
		}
	}
	v.verified(total, sharded)
	if len(total.Findings) > 0 {
		return ExitChanges
	}
	return ExitOK
}
