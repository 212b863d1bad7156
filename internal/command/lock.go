package command

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/state"
)

// LockCommand shows who holds the state lock.
type LockCommand struct{ *Meta }

type lockArgs struct {
	configFlags
	json             bool
	detailedExitcode bool
}

func (c *LockCommand) Synopsis() string { return "Show who holds the state lock" }
func (c *LockCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] lock [options]

  Shows whether the state is locked and, if so, by whom: the lock ID, the
  operation, user, host and process, the streamctl version, and how long ago
  the lock was taken and its heartbeat last refreshed. Nothing is changed;
  "streamctl force-unlock ID" removes a lock whose holder died.

Options:

  -json               Print one JSON document.
  -detailed-exitcode  Exit 4 when the state is locked, 0 when it is free.
`+configFlagsHelp) + "\n"
}

func (c *LockCommand) flags(a *lockArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("lock", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.configFlags.register(fs)
	fs.BoolVar(&a.json, "json", false, "")
	fs.BoolVar(&a.detailedExitcode, "detailed-exitcode", false, "")
	return fs
}

// FlagSet lists lock's flags.
func (c *LockCommand) FlagSet() *flag.FlagSet { return c.flags(&lockArgs{}) }

// lockDocument is `lock -json`.
type lockDocument struct {
	Locked  bool            `json:"locked"`
	Backend string          `json:"backend"`
	Holder  *state.LockInfo `json:"holder"`
	// AgeSeconds is how long ago the lock was taken; HeartbeatAgeSeconds how
	// long ago its holder last refreshed it (remote backends).
	AgeSeconds          *int64 `json:"age_seconds,omitempty"`
	HeartbeatAgeSeconds *int64 `json:"heartbeat_age_seconds,omitempty"`
	// Sinks are the sinks' locks held, on a remote state whose applies lock
	// each sink: the state's own lock is then free while they run.
	Sinks []sinkLockDocument `json:"sinks,omitempty"`
}

// sinkLockDocument is the lock of one sink.
type sinkLockDocument struct {
	Sink   string          `json:"sink"`
	Holder *state.LockInfo `json:"holder"`
}

func (c *LockCommand) Run(args []string) int {
	a := &lockArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 0 {
		return c.errorf("lock takes only options\n\n%s", c.Help())
	}
	v := c.newLockView(a.json, a.noColor)
	cfg, ok := c.loadConfigView(&a.configFlags, &view{v})
	if !ok {
		return ExitError
	}
	ctx := context.Background()
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	holder, err := backend.LockInfo(ctx)
	if err != nil {
		return failf(v, "read the lock of %s: %v", backend.Describe(), err)
	}
	now := c.now()
	doc := lockDocument{Locked: holder != nil, Backend: backend.Describe(), Holder: holder}
	if holder != nil {
		age := int64(now.Sub(holder.Created).Seconds())
		doc.AgeSeconds = &age
		if !holder.Heartbeat.IsZero() {
			hb := int64(now.Sub(holder.Heartbeat).Seconds())
			doc.HeartbeatAgeSeconds = &hb
		}
	}
	if sb, ok := backend.(state.ShardedBackend); ok {
		for _, n := range workspace.SinkLockNames(ctx, cfg, backend, Version) {
			h, err := sb.SinkLock(n).LockInfo(ctx)
			if err != nil {
				return failf(v, "read the lock of sink %q on %s: %v", n, backend.Describe(), err)
			}
			if h != nil {
				doc.Sinks = append(doc.Sinks, sinkLockDocument{Sink: n, Holder: h})
			}
		}
	}
	v.lock(doc, now)
	if a.detailedExitcode && (holder != nil || len(doc.Sinks) > 0) {
		return ExitLocked
	}
	return ExitOK
}

// ForceUnlockCommand removes a lock left behind.
type ForceUnlockCommand struct{ *Meta }

func (c *ForceUnlockCommand) Synopsis() string { return "Remove a stale state lock" }
func (c *ForceUnlockCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] force-unlock [options] LOCK_ID

  Removes the state lock whose ID is LOCK_ID, as shown when a lock is refused
  or by "streamctl lock". Only for a lock whose holder died: a remote lock
  (S3, Azure) survives its holder, a local one is released by the kernel when
  the holder exits.

Options:

`+configFlagsHelp) + "\n"
}

func (c *ForceUnlockCommand) flags(f *configFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("force-unlock", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	return fs
}

// FlagSet lists force-unlock's flags.
func (c *ForceUnlockCommand) FlagSet() *flag.FlagSet { return c.flags(&configFlags{}) }

func (c *ForceUnlockCommand) Run(args []string) int {
	var f configFlags
	fs := c.flags(&f)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() != 1 {
		return c.errorf("force-unlock needs the lock ID\n\n%s", c.Help())
	}
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	ctx := context.Background()
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	id := fs.Arg(0)
	err = backend.ForceUnlock(ctx, id)
	if sb, ok := backend.(state.ShardedBackend); ok && err != nil {
		// The ID may be a sink's lock, taken by an apply of that sink.
		var held []string
		for _, n := range workspace.SinkLockNames(ctx, cfg, backend, Version) {
			l := sb.SinkLock(n)
			h, herr := l.LockInfo(ctx)
			if herr != nil || h == nil {
				continue
			}
			if h.ID == id {
				if ferr := l.ForceUnlock(ctx, id); ferr != nil {
					return c.errorf("%v", ferr)
				}
				fmt.Fprintf(c.Stdout, "The lock %s of sink %q on %s was removed.\n", id, n, backend.Describe())
				return ExitOK
			}
			held = append(held, fmt.Sprintf("sink %q: ID %s", n, h.ID))
		}
		if len(held) > 0 {
			return c.errorf("%v\n\nNo sink's lock has ID %s either; the sinks' locks held are: %s", err, id, strings.Join(held, "; "))
		}
	}
	if err != nil {
		return c.errorf("%v", err)
	}
	fmt.Fprintf(c.Stdout, "The lock %s on %s was removed.\n", id, backend.Describe())
	return ExitOK
}
