package command

import (
	"flag"
	"io"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/posener/complete"

	"github.com/streamctl/streamctl/internal/format"
)

// devVersion is the version of a build that was given none.
const devVersion = "0.1.0-dev"

// Version is streamctl's version, without a leading v. make release sets it
// with -ldflags -X; otherwise `go install …/streamctl@v1.2.3` stamps the
// module's version into the binary, and init takes it from there.
var Version = devVersion

// Commit is the source commit the binary was built from. make release sets
// it with -ldflags -X; otherwise it is go build's vcs.revision, or "unknown"
// (go install from the module proxy records none).
var Commit = ""

// The Parquet files name their writer (created_by): this version, and the
// commit, unless -ldflags set format.Build. Both come with the binary, so
// it writes the same bytes on every run.
func init() {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	Version = resolveVersion(Version, info.Main.Version)
	if Commit == "" {
		Commit = "unknown"
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				Commit = s.Value
			}
		}
	}
	format.Version = Version
	if format.Build == "unknown" && len(Commit) >= 12 {
		format.Build = Commit[:12]
	}
}

// pseudoVersion matches the versions the go command makes up for an
// untagged commit (v0.0.0-20260102150405-0123456789ab).
var pseudoVersion = regexp.MustCompile(`-(?:[0-9a-z.]+\.)?\d{14}-[0-9a-f]{12}$`)

// resolveVersion is the version a binary reports: the one -ldflags set, else
// the module version go stamped if it names a release (not "(devel)", a
// pseudo-version or a build with uncommitted changes), else devVersion.
func resolveVersion(set, module string) string {
	if set != devVersion {
		return strings.TrimPrefix(set, "v")
	}
	if !strings.HasPrefix(module, "v") || strings.Contains(module, "+") || pseudoVersion.MatchString(module) {
		return devVersion
	}
	return strings.TrimPrefix(module, "v")
}

// versionInfo is version -json's document.
type versionInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func currentVersion() versionInfo {
	return versionInfo{Version: Version, Commit: Commit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
}

// VersionCommand prints the version.
type VersionCommand struct{ *Meta }

type versionArgs struct{ json bool }

func (c *VersionCommand) Synopsis() string { return "Show the streamctl version" }
func (c *VersionCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl version [-json]

  Prints the streamctl version, the commit it was built from, and the Go
  version and platform of the build.

Options:

  -json               Print one JSON document:
                      {"version": …, "commit": …, "go": …, "platform": …}.
`) + "\n"
}

func (c *VersionCommand) flags(a *versionArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.json, "json", false, "")
	return fs
}

// FlagSet lists version's flags.
func (c *VersionCommand) FlagSet() *flag.FlagSet { return c.flags(&versionArgs{}) }

func (c *VersionCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *VersionCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *VersionCommand) Run(args []string) int {
	a := &versionArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 0 {
		return c.errorf("unexpected argument %q; version takes only -json\n\n%s", fs.Arg(0), c.Help())
	}
	return c.newVersionView(a.json).version(currentVersion())
}
