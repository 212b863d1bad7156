package command

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/streamctl/streamctl/internal/config"

	"github.com/streamctl/streamctl/internal/render"
)

// FmtCommand rewrites configuration files in the canonical HCL style.
type FmtCommand struct{ *Meta }

type fmtArgs struct {
	list, write, diff, check, recursive, noColor bool
}

func (c *FmtCommand) Synopsis() string { return "Format the configuration files" }
func (c *FmtCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] fmt [options] [TARGET...]

  Rewrites the configuration files (*.hcl) and variables files (*.vars) of
  each TARGET directory, or the TARGET files, in the canonical HCL style.
  Without TARGET, the configuration directory. TARGET "-" formats standard
  input to standard output. A file with a syntax error is reported and left
  as it is.

Options:

  -list=false         Do not list the files whose formatting changed.
  -write=false        Do not rewrite the files.
  -diff               Print the changes as a unified diff.
  -check              Change nothing; exit 3 when a file is not formatted
                      (for CI).
  -recursive          Also the subdirectories (hidden ones excepted).
  -no-color           Accepted for symmetry; fmt prints no colour.
`) + "\n"
}

func (c *FmtCommand) flags(a *fmtArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.list, "list", true, "")
	fs.BoolVar(&a.write, "write", true, "")
	fs.BoolVar(&a.diff, "diff", false, "")
	fs.BoolVar(&a.check, "check", false, "")
	fs.BoolVar(&a.recursive, "recursive", false, "")
	fs.BoolVar(&a.noColor, "no-color", false, "")
	return fs
}

// FlagSet lists fmt's flags.
func (c *FmtCommand) FlagSet() *flag.FlagSet { return c.flags(&fmtArgs{}) }

// isConfigFile reports whether fmt formats the file named name.
func isConfigFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".vars")
}

func (c *FmtCommand) Run(args []string) int {
	a := &fmtArgs{}
	fset := c.flags(a)
	if err := fset.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if a.check {
		a.write = false
	}
	targets := fset.Args()
	if len(targets) == 0 {
		targets = []string{"."}
	}
	if len(targets) == 1 && targets[0] == "-" {
		return c.formatStdin(a)
	}
	var files []string
	for _, t := range targets {
		if t == "-" {
			return c.errorf("fmt reads standard input only when \"-\" is its only target")
		}
		path := c.abs(t)
		fi, err := os.Stat(path)
		if err != nil {
			return c.errorf("%v", err)
		}
		if !fi.IsDir() {
			files = append(files, t)
			continue
		}
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != path && (!a.recursive || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if isConfigFile(d.Name()) {
				rel, _ := filepath.Rel(path, p)
				files = append(files, filepath.Join(t, rel))
			}
			return nil
		})
		if err != nil {
			return c.errorf("%v", err)
		}
	}
	sort.Strings(files)
	unformatted, failed := 0, false
	for _, name := range files {
		path := c.abs(name)
		src, err := os.ReadFile(path)
		if err != nil {
			c.errorf("%v", err)
			failed = true
			continue
		}
		out, ok := c.format(src, name, a.noColor)
		if !ok {
			failed = true
			continue
		}
		if bytes.Equal(src, out) {
			continue
		}
		unformatted++
		if a.list {
			fmt.Fprintln(c.Stdout, filepath.ToSlash(name))
		}
		if a.diff {
			fmt.Fprint(c.Stdout, render.UnifiedDiff(string(src), string(out), "old/"+filepath.ToSlash(name), "new/"+filepath.ToSlash(name)))
		}
		if a.write {
			fi, err := os.Stat(path)
			if err != nil {
				c.errorf("%v", err)
				failed = true
				continue
			}
			if err := writeFileAtomic(path, out, fi.Mode().Perm()); err != nil {
				c.errorf("rewrite %s: %v", name, err)
				failed = true
			}
		}
	}
	switch {
	case failed:
		return ExitError
	case a.check && unformatted > 0:
		return ExitUnformatted
	}
	return ExitOK
}

// format returns src in the canonical style, or reports its syntax errors.
func (c *FmtCommand) format(src []byte, name string, noColor bool) ([]byte, bool) {
	if d := config.CheckNesting(src, name); d != nil {
		w := hcl.NewDiagnosticTextWriter(c.Stderr, nil, 100, c.color(noColor))
		w.WriteDiagnostic(d)
		return nil, false
	}
	f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		files := map[string]*hcl.File{name: f}
		w := hcl.NewDiagnosticTextWriter(c.Stderr, files, 100, c.color(noColor))
		w.WriteDiagnostics(diags)
		return nil, false
	}
	return hclwrite.Format(src), true
}

func (c *FmtCommand) formatStdin(a *fmtArgs) int {
	src, err := io.ReadAll(c.Stdin)
	if err != nil {
		return c.errorf("read standard input: %v", err)
	}
	out, ok := c.format(src, "<stdin>", a.noColor)
	if !ok {
		return ExitError
	}
	switch {
	case a.check:
	case a.diff:
		fmt.Fprint(c.Stdout, render.UnifiedDiff(string(src), string(out), "old/<stdin>", "new/<stdin>"))
	default:
		c.Stdout.Write(out)
	}
	if a.check && !bytes.Equal(src, out) {
		return ExitUnformatted
	}
	return ExitOK
}
