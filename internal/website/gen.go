package website

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/internal/command"
	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/providers/all"
)

// generator expands `<!-- generated: NAME ARGS -->` lines into Markdown made
// from the code.
type generator struct {
	root string
}

var marker = regexp.MustCompile(`(?m)^<!-- generated: ([a-z-]+)(.*?) -->$`)

func (g *generator) expand(src string) (string, error) {
	var firstErr error
	out := marker.ReplaceAllStringFunc(src, func(m string) string {
		sub := marker.FindStringSubmatch(m)
		args := strings.Fields(sub[2])
		var s string
		var err error
		switch sub[1] {
		case "config-reference":
			s, err = g.configReference()
		case "cli-reference":
			s, err = CLIReference()
		case "exit-codes":
			s, err = g.exitCodes()
		case "json-ui":
			s, err = g.jsonUI()
		case "json-struct":
			if len(args) < 2 {
				err = fmt.Errorf("json-struct needs a package directory and a type")
				break
			}
			s, err = g.jsonStructs(args[0], args[1:])
		default:
			err = fmt.Errorf("unknown generated section %q", sub[1])
		}
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("generated %s: %w", sub[1], err)
		}
		return s
	})
	return out, firstErr
}

// configReference renders config.Schema.
func (g *generator) configReference() (string, error) {
	blocks := config.Schema(all.Kinds())
	if err := config.FillDocs(g.root, blocks); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Blocks at a glance {#blocks}\n\n")
	config.Walk(blocks, func(path []*config.SchemaBlock) {
		blk := path[len(path)-1]
		fmt.Fprintf(&b, "%s- [`%s`](#%s): %s\n", strings.Repeat("  ", len(path)-1), blk.Label(), blk.ID, blk.Summary)
	})
	b.WriteString("\n")
	config.Walk(blocks, func(path []*config.SchemaBlock) {
		blk := path[len(path)-1]
		level := len(path) + 1
		if level > 4 {
			level = 4
		}
		var where []string
		for _, p := range path[:len(path)-1] {
			where = append(where, "<code>"+html.EscapeString(p.Label())+"</code>")
		}
		fmt.Fprintf(&b, "%s %s {#%s}\n\n", strings.Repeat("#", level), blk.Label(), blk.ID)
		if len(where) > 0 {
			fmt.Fprintf(&b, "<p class=\"where\">Inside %s</p>\n\n", strings.Join(where, " › "))
		}
		fmt.Fprintf(&b, "%s", blk.Summary)
		switch {
		case blk.Max == 1:
			b.WriteString(" At most one.")
		case blk.Max > 1:
			fmt.Fprintf(&b, " At most %d.", blk.Max)
		}
		b.WriteString("\n\n")
		if blk.Description != "" {
			b.WriteString(escapeMarkdown(blk.Description) + "\n\n")
		}
		if blk.AnyAttributes {
			b.WriteString("Attributes: any name, any expression.\n\n")
		}
		if len(blk.Attributes) > 0 {
			b.WriteString("| Attribute | Type | Default | Description |\n|---|---|---|---|\n")
			for _, a := range blk.Attributes {
				desc := escapeMarkdown(a.Description)
				if a.Required {
					desc = "**Required.** " + strings.ReplaceAll(desc, " Required.", "")
				}
				if a.Secret {
					desc += " *Secret*: only from a `sensitive` variable."
				}
				if len(a.Allowed) > 0 {
					desc += " One of " + codeList(a.Allowed) + "."
				}
				desc += " Example: `" + a.Name + " = " + a.Example + "`."
				def := a.Default
				if def == "" {
					def = "—"
				} else if !strings.Contains(def, "`") && (strings.HasPrefix(def, `"`) || isNumberish(def)) {
					def = "`" + def + "`"
				}
				fmt.Fprintf(&b, "| <span id=\"%s-%s\"></span>`%s` | %s | %s | %s |\n",
					blk.ID, a.Name, a.Name, cell(a.Type), cell(def), cell(desc))
			}
			b.WriteString("\n")
		}
		if len(blk.Refused) > 0 {
			var names []string
			for n := range blk.Refused {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(&b, "Not allowed here: `%s`. %s\n\n", n, blk.Refused[n])
			}
		}
		if len(blk.Blocks) > 0 {
			var nested []string
			for _, c := range blk.Blocks {
				nested = append(nested, fmt.Sprintf("[`%s`](#%s)", c.Label(), c.ID))
			}
			fmt.Fprintf(&b, "Blocks: %s.\n\n", strings.Join(nested, ", "))
		}
		if blk.Example != "" {
			fmt.Fprintf(&b, "```hcl\n%s```\n\n", blk.Example)
		}
	})
	return b.String(), nil
}

func isNumberish(s string) bool {
	_, err := strconv.ParseFloat(strings.Fields(s)[0], 64)
	return err == nil || s == "true" || s == "false"
}

func codeList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// CommandHelp is a command's help, split into its parts.
type CommandHelp struct {
	Name        string
	Synopsis    string
	Usage       string
	Description string
	Options     []Option
	Subcommands []string
	// Raw is the whole help text.
	Raw string
}

// Option is one line of a help's Options section.
type Option struct {
	// Flag is the flag's name with its leading dash: "-out".
	Flag string
	// Spelling is how the help writes it: "-out=FILE", "-var 'NAME=VALUE'".
	Spelling string
	// Value is the value placeholder ("FILE", "N", "'NAME=VALUE'"), "" for a
	// plain boolean; a lowercase value ("false") is an example of a boolean.
	Value       string
	Description string
}

// TakesValue reports whether the flag needs a value (a placeholder with
// capitals: FILE, 'NAME=VALUE', sink.NAME): written without "=", the next
// argument is its value. A lowercase value ("false") shows a boolean.
func (o Option) TakesValue() bool {
	return strings.ToLower(o.Value) != o.Value
}

// Commands returns the help of every command of command.Commands, in name
// order. It reads the command map at build time, so new commands appear
// without touching the site.
func Commands() ([]CommandHelp, error) {
	factories := command.Commands(&command.Meta{})
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []CommandHelp
	for _, n := range names {
		c, err := factories[n]()
		if err != nil {
			return nil, fmt.Errorf("command %s: %w", n, err)
		}
		h := ParseHelp(c.Help())
		h.Name = n
		h.Synopsis = c.Synopsis()
		out = append(out, h)
	}
	return out, nil
}

// ParseHelp splits a help text written in the commands' style: a "Usage:"
// line, indented paragraphs, then "Options:" and "Subcommands:" sections.
func ParseHelp(help string) CommandHelp {
	h := CommandHelp{Raw: help}
	section := "description"
	var desc []string
	for _, line := range strings.Split(help, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Usage:"):
			h.Usage = strings.TrimSpace(strings.TrimPrefix(line, "Usage:"))
			continue
		case line == "Options:":
			section = "options"
			continue
		case line == "Subcommands:":
			section = "subcommands"
			continue
		}
		switch section {
		case "description":
			desc = append(desc, trimmed)
		case "options":
			if o, ok := parseOption(line); ok {
				h.Options = append(h.Options, o)
			} else if trimmed != "" && len(h.Options) > 0 {
				o := &h.Options[len(h.Options)-1]
				o.Description = strings.TrimSpace(o.Description + " " + trimmed)
			}
		case "subcommands":
			if f := strings.Fields(trimmed); len(f) > 0 {
				h.Subcommands = append(h.Subcommands, f[0])
			}
		}
	}
	h.Description = strings.TrimSpace(strings.Join(desc, "\n"))
	return h
}

// parseOption reads an option line: "  -out=FILE  Save the plan", "  -var
// 'NAME=VALUE'   Set a variable", "  -verbose   Show …". A value written after
// a space is quoted or upper case, so that a description is never taken for
// one.
func parseOption(line string) (Option, bool) {
	if !strings.HasPrefix(line, "  ") {
		return Option{}, false
	}
	s := strings.TrimLeft(line, " ")
	if len(s) < 2 || s[0] != '-' || !(s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z') {
		return Option{}, false
	}
	end := strings.IndexAny(s, "= \t")
	if end < 0 {
		end = len(s)
	}
	o := Option{Flag: s[:end]}
	rest := s[end:]
	switch {
	case strings.HasPrefix(rest, "="):
		v, after, _ := strings.Cut(rest[1:], " ")
		o.Value, rest = v, after
		o.Spelling = o.Flag + "=" + v
	case strings.HasPrefix(rest, " '"):
		if j := strings.IndexByte(rest[2:], '\''); j >= 0 {
			o.Value = rest[1 : j+3]
			rest = rest[j+3:]
			o.Spelling = o.Flag + " " + o.Value
		}
	case strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "  "):
		v, after, _ := strings.Cut(rest[1:], " ")
		if v != "" && strings.ToUpper(v) == v && strings.ToLower(v) != v {
			o.Value, rest = v, after
			o.Spelling = o.Flag + " " + v
		}
	}
	if o.Spelling == "" {
		o.Spelling = o.Flag
	}
	o.Description = strings.TrimSpace(rest)
	return o, true
}

// GlobalOptions are the options streamctl takes before the command.
var GlobalOptions = []Option{
	{Flag: "-chdir", Spelling: "-chdir=DIR", Value: "DIR", Description: "Read the configuration in DIR, as if streamctl was started there. Paths given on the command line are relative to DIR too."},
	{Flag: "-help", Spelling: "-help", Description: "Show the list of commands; after a command, that command's help."},
	{Flag: "-version", Spelling: "-version", Description: "Show the version, like the version command."},
}

// CLIReference renders the command-line reference from the commands' help.
func CLIReference() (string, error) {
	cmds, err := Commands()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Global options {#global-options}\n\n")
	b.WriteString("```text\nstreamctl [-chdir=DIR] COMMAND [options] [arguments]\n```\n\n")
	b.WriteString("| Option | Description |\n|---|---|\n")
	for _, o := range GlobalOptions {
		fmt.Fprintf(&b, "| `%s` | %s |\n", o.Spelling, cell(o.Description))
	}
	b.WriteString("\n## Commands {#commands}\n\n| Command | Description |\n|---|---|\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.Name, commandID(c.Name), cell(c.Synopsis))
	}
	b.WriteString("\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "## %s {#%s}\n\n%s.\n\n", c.Name, commandID(c.Name), strings.TrimSuffix(c.Synopsis, "."))
		if c.Usage != "" {
			fmt.Fprintf(&b, "```text\n%s\n```\n\n", c.Usage)
		}
		for _, para := range strings.Split(c.Description, "\n\n") {
			if p := strings.Join(strings.Fields(para), " "); p != "" {
				b.WriteString(escapeMarkdown(p) + "\n\n")
			}
		}
		if len(c.Subcommands) > 0 {
			var links []string
			for _, s := range c.Subcommands {
				full := c.Name + " " + s
				links = append(links, fmt.Sprintf("[`%s`](#%s)", full, commandID(full)))
			}
			fmt.Fprintf(&b, "Subcommands: %s.\n\n", strings.Join(links, ", "))
		}
		if len(c.Options) > 0 {
			b.WriteString("| Option | Description |\n|---|---|\n")
			for _, o := range c.Options {
				fmt.Fprintf(&b, "| `%s` | %s |\n", o.Spelling, cell(escapeMarkdown(o.Description)))
			}
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

func commandID(name string) string { return "cmd-" + strings.ReplaceAll(name, " ", "-") }

// escapeMarkdown keeps text from comments and help literal: <batch> is not
// an HTML tag and _temporary is not emphasis. Code spans are left alone:
// Markdown shows their content as written.
func escapeMarkdown(s string) string {
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;", "_", `\_`, "*", `\*`)
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = r.Replace(parts[i])
	}
	return strings.Join(parts, "`")
}

// jsonUIDoc is where the engineers of the -json output document it.
const jsonUIDoc = "docs/json-output.md"

// jsonUI includes the -json reference written beside the code, or says that
// the output is not there yet. The included page's own title is dropped, and
// its links to files that are not pages of the site become plain text.
func (g *generator) jsonUI() (string, error) {
	data, err := os.ReadFile(filepath.Join(g.root, filepath.FromSlash(jsonUIDoc)))
	if os.IsNotExist(err) {
		return "<div class=\"note\">\n\n**Not available yet.** Machine-readable output (`-json` on `plan`, `apply`, `validate` and `show`: " +
			"one JSON object per line with `@level`, `@message`, `@timestamp` and `type`) is being built. This page will list every " +
			"message type and its fields, from `" + jsonUIDoc + "`, with the stability promise: additive changes bump the minor version.\n\n</div>\n", nil
	}
	if err != nil {
		return "", err
	}
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		if i == 0 && strings.HasPrefix(line, "# ") {
			continue
		}
		out = append(out, line)
	}
	text := mdLink.ReplaceAllStringFunc(strings.Join(out, "\n"), func(m string) string {
		sub := mdLink.FindStringSubmatch(m)
		target, _, _ := strings.Cut(sub[2], "#")
		if isExternal(sub[2]) || target == "" {
			return m
		}
		if _, err := os.Stat(filepath.Join(g.root, "website", "content", filepath.Base(target))); err == nil && strings.HasSuffix(target, ".md") {
			return "[" + sub[1] + "](" + filepath.Base(target) + ")"
		}
		return sub[1]
	})
	return text, nil
}

var mdLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)

// exitDefaults describe the codes whose constant has no comment.
var exitDefaults = map[string]string{
	"ExitOK":    "Success, including when there was nothing to do.",
	"ExitError": "An error. The message on standard error says what happened, where, and what to do next.",
}

// genDecls parses the Go files of the package in dir (slash-separated,
// under the repository), tests left out, and calls fn on each declaration of
// tok in them, in file order: the pages document constants and types from
// the source, read one way.
func (g *generator) genDecls(dir string, tok token.Token, fn func(*ast.GenDecl)) error {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(g.root, filepath.FromSlash(dir), "*.go"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == tok {
				fn(gd)
			}
		}
	}
	return nil
}

// exitCodes renders the Exit* constants of internal/command with their
// comments.
func (g *generator) exitCodes() (string, error) {
	type code struct {
		name, value, doc string
	}
	commands := command.Commands(&command.Meta{})
	var codes []code
	err := g.genDecls("internal/command", token.CONST, func(gd *ast.GenDecl) {
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Exit") || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				doc := vs.Comment.Text()
				if doc == "" {
					doc = vs.Doc.Text()
				}
				doc = strings.TrimPrefix(strings.Join(strings.Fields(doc), " "), n.Name+": ")
				if doc == "" {
					doc = exitDefaults[n.Name]
				}
				if first, rest, _ := strings.Cut(doc, " "); commands[first] != nil {
					// A sentence that starts with a command keeps it as code.
					doc = "`" + first + "` " + rest
				} else if doc != "" {
					doc = strings.ToUpper(doc[:1]) + doc[1:]
				}
				codes = append(codes, code{n.Name, lit.Value, doc})
			}
		}
	})
	if err != nil {
		return "", err
	}
	if len(codes) == 0 {
		return "", fmt.Errorf("no Exit* constants in internal/command")
	}
	sort.SliceStable(codes, func(i, j int) bool {
		a, _ := strconv.Atoi(codes[i].value)
		b, _ := strconv.Atoi(codes[j].value)
		return a < b
	})
	var b strings.Builder
	b.WriteString("| Code | Name | Meaning |\n|---|---|---|\n")
	for _, c := range codes {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", c.value, c.name, cell(c.doc))
	}
	return b.String(), nil
}

// jsonStructs renders tables of the JSON fields of the struct types named,
// declared in the package directory dir, following the struct types of the
// same package they contain.
func (g *generator) jsonStructs(dir string, types []string) (string, error) {
	structs := map[string]*ast.TypeSpec{}
	docs := map[string]string{}
	err := g.genDecls(dir, token.TYPE, func(gd *ast.GenDecl) {
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if _, ok := ts.Type.(*ast.StructType); ok {
				structs[ts.Name.Name] = ts
				doc := ts.Doc.Text()
				if doc == "" && len(gd.Specs) == 1 {
					doc = gd.Doc.Text()
				}
				docs[ts.Name.Name] = strings.Join(strings.Fields(doc), " ")
			}
		}
	})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	seen := map[string]bool{}
	queue := append([]string(nil), types...)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		ts := structs[name]
		if ts == nil {
			return "", fmt.Errorf("no struct %s in %s", name, dir)
		}
		fmt.Fprintf(&b, "#### %s {#%s-%s}\n\n", name, strings.ReplaceAll(dir, "/", "-"), strings.ToLower(name))
		if d := docs[name]; d != "" {
			b.WriteString(escapeMarkdown(d) + "\n\n")
		}
		b.WriteString("| Field | JSON type | Description |\n|---|---|---|\n")
		fields := ts.Type.(*ast.StructType).Fields.List
		// Comments name Go fields; the reader knows the JSON names.
		jsonNames := map[string]string{}
		for _, f := range fields {
			if f.Tag == nil {
				continue
			}
			tag, _ := strconv.Unquote(f.Tag.Value)
			if n, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); n != "" && n != "-" {
				for _, id := range f.Names {
					jsonNames[id.Name] = n
				}
			}
		}
		for _, f := range fields {
			if f.Tag == nil {
				continue
			}
			tag, _ := strconv.Unquote(f.Tag.Value)
			jsonName, opts, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			if jsonName == "" || jsonName == "-" {
				continue
			}
			doc := f.Doc.Text()
			if doc == "" {
				doc = f.Comment.Text()
			}
			doc = goIdent.ReplaceAllStringFunc(strings.Join(strings.Fields(doc), " "), func(w string) string {
				if n, ok := jsonNames[w]; ok {
					return "`" + n + "`"
				}
				return w
			})
			if doc != "" {
				doc = strings.ToUpper(doc[:1]) + doc[1:]
				if !strings.HasSuffix(doc, ".") {
					doc += "."
				}
			}
			if strings.Contains(opts, "omitempty") {
				doc = strings.TrimSpace(doc + " Omitted when empty.")
			}
			typ, refs := jsonType(f.Type, structs)
			queue = append(queue, refs...)
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", jsonName, cell(typ), cell(escapeMarkdown(doc)))
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

var goIdent = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`)

// jsonType names the JSON type of a Go type expression, and the same-package
// structs it refers to.
func jsonType(e ast.Expr, structs map[string]*ast.TypeSpec) (string, []string) {
	switch t := e.(type) {
	case *ast.StarExpr:
		s, refs := jsonType(t.X, structs)
		return s + " or null", refs
	case *ast.ArrayType:
		s, refs := jsonType(t.Elt, structs)
		return "array of " + s, refs
	case *ast.MapType:
		s, refs := jsonType(t.Value, structs)
		return "object of " + s, refs
	case *ast.SelectorExpr:
		if t.Sel.Name == "Time" {
			return "string (RFC 3339 time)", nil
		}
		return t.Sel.Name + " (object)", nil
	case *ast.Ident:
		switch t.Name {
		case "string":
			return "string", nil
		case "bool":
			return "boolean", nil
		case "int", "int32", "int64", "uint", "uint32", "uint64", "float64":
			return "number", nil
		}
		if _, ok := structs[t.Name]; ok {
			return t.Name, []string{t.Name}
		}
		return t.Name, nil
	}
	return "any", nil
}
