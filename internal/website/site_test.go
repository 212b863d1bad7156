package website

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/streamctl/streamctl/internal/command"
	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/all"
)

var (
	siteOnce sync.Once
	siteVal  *Site
	siteErr  error
)

// loadSite loads the site once for all tests of the package.
func loadSite(t *testing.T) *Site {
	t.Helper()
	siteOnce.Do(func() { siteVal, siteErr = Load(testenv.RepoRoot()) })
	if siteErr != nil {
		t.Fatalf("load the site: %v", siteErr)
	}
	return siteVal
}

func TestSiteHasEveryTopic(t *testing.T) {
	s := loadSite(t)
	for _, slug := range []string{
		"index", "getting-started", "concepts", "protocol", "exactly-once-reads", "comparison",
		"guide-ci", "guide-scheduled", "guide-multiple-accounts", "guide-drift", "guide-moving-state",
		"configuration", "cli", "exit-codes", "environment", "json-output", "file-formats",
		"iceberg-tables", "shards", "workers", "schema-registry",
	} {
		if s.Page(slug) == nil {
			t.Errorf("no page %s", slug)
		}
	}
	// Generated reference pages hold every block and every command.
	cfg := s.Page("configuration")
	config.Walk(config.Schema(all.Kinds()), func(path []*config.SchemaBlock) {
		if b := path[len(path)-1]; cfg != nil && !cfg.IDs[b.ID] {
			t.Errorf("the configuration reference has no section for %s", b.ID)
		}
	})
	cli := s.Page("cli")
	for name := range command.Commands(&command.Meta{}) {
		if cli != nil && !cli.IDs[commandID(name)] {
			t.Errorf("the CLI reference has no section for %q", name)
		}
	}
	if p := s.Page("exit-codes"); p != nil && !strings.Contains(p.Markdown, "`ExitChanges`") {
		t.Errorf("the exit codes page lacks the generated table")
	}
	if p := s.Page("concepts"); p != nil && !strings.Contains(string(p.HTML), "assets/protocol.svg") {
		t.Errorf("the concepts page lacks the protocol diagram")
	}
}

func TestBuildWritesEveryPage(t *testing.T) {
	out := t.TempDir()
	s, err := Build(testenv.RepoRoot(), out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Pages {
		data, err := os.ReadFile(filepath.Join(out, p.URL()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), ".md\"") || strings.Contains(string(data), ".md#") {
			t.Errorf("%s still links to a Markdown source", p.URL())
		}
	}
	for _, f := range []string{"assets/style.css", "assets/search.js", "assets/protocol.svg", "search-index.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestBrokenLinksAreRefused(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"website/content", "website/assets"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	page := "---\ntitle: A\nsection: Start\n---\n# A\n\n[b](missing.md) [c](#nowhere)\n"
	if err := os.WriteFile(filepath.Join(root, "website/content/a.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(root)
	if err == nil || !strings.Contains(err.Error(), "missing.md") || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("want both broken links reported, got %v", err)
	}
}

// exampleVariables give values to the sensitive variables without a default
// that examples declare, as a user would through STREAMCTL_VAR_<name>.
var exampleVariables = map[string]string{
	"eu_sas":             "sv=2024-01-01&sig=EXAMPLE",
	"us_sas":             "sv=2024-01-01&sig=EXAMPLE",
	"pg_password":        "example",
	"catalog_credential": "streamctl:example",
}

// TestHCLExamplesValidate runs `streamctl validate` on every HCL example of
// the site, the generated reference included, each alone in a directory.
func TestHCLExamplesValidate(t *testing.T) {
	s := loadSite(t)
	n := 0
	for _, p := range s.Pages {
		for i, c := range p.Code {
			if c.Inline || c.Lang != "hcl" {
				continue
			}
			n++
			name := fmt.Sprintf("%s/%d", p.Slug, i)
			env, err := exampleEnv(c.Text)
			if err != nil {
				t.Errorf("%s: %v\n%s", name, err, c.Text)
				continue
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(c.Text), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := command.Main([]string{"-chdir=" + dir, "validate", "-no-color"}, command.Streams{
				Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Environ: env,
			})
			if code != command.ExitOK {
				t.Errorf("%s: streamctl validate exits %d:\n%s\n%s", name, code, stderr.String(), c.Text)
			}
		}
	}
	if n < 15 {
		t.Errorf("only %d HCL examples found", n)
	}
}

// exampleEnv sets STREAMCTL_VAR_<name> for the example's variables that have
// no default.
func exampleEnv(src string) ([]string, error) {
	f, diags := hclsyntax.ParseConfig([]byte(src), "example.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	// The SASL example leaves the password to the environment.
	env := []string{"KAFKA_SASL_PASSWORD=example"}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type != "variable" || len(b.Labels) != 1 {
			continue
		}
		if _, ok := b.Body.Attributes["default"]; ok {
			continue
		}
		v, ok := exampleVariables[b.Labels[0]]
		if !ok {
			return nil, fmt.Errorf("variable %q has no default: add a value to exampleVariables", b.Labels[0])
		}
		env = append(env, config.EnvPrefix+b.Labels[0]+"="+v)
	}
	return env, nil
}

// TestCommandOptionsAreReal checks every option of every command's help (the
// CLI reference is made of them) against the command's real flag parser.
func TestCommandOptionsAreReal(t *testing.T) {
	cli := newCLI(t)
	options := 0
	for _, name := range cli.names() {
		spec := cli.cmds[name]
		for _, o := range spec.help.Options {
			options++
			arg := o.Flag
			switch {
			case o.TakesValue():
				arg += "=" + sampleValue(o.Value)
			case o.Value != "":
				arg += "=" + o.Value
			}
			if msg := cli.parses(name, []string{arg}); msg != "" {
				t.Errorf("streamctl %s: the help lists %s, but the command refuses it: %s", name, o.Spelling, msg)
			}
		}
	}
	if options < 10 {
		t.Errorf("only %d options found in the commands' help: is the help format parsed?", options)
	}
	// The global options are handled by Main.
	var out bytes.Buffer
	if code := command.Main([]string{"-chdir=" + t.TempDir(), "-version"}, command.Streams{Stdout: &out, Stderr: &out, Environ: []string{}}); code != 0 || !strings.Contains(out.String(), command.Version) {
		t.Errorf("streamctl -chdir=DIR -version: exit %d, %q", code, out.String())
	}
}

func sampleValue(placeholder string) string {
	switch strings.Trim(placeholder, "'\"") {
	case "N":
		return "1"
	case "DURATION":
		return "1s"
	case "NAME=VALUE":
		return "a=b"
	}
	return "x"
}

// TestCommandLines checks every streamctl command line of the site — in shell
// and YAML code blocks and in inline code — against the command table: the
// command must exist, and each option must be accepted, with its value, by
// the command's own flag parser (run with the option followed by -h, which
// stops the parser before the command does anything).
func TestCommandLines(t *testing.T) {
	s := loadSite(t)
	cli := newCLI(t)
	checked := 0
	for _, p := range s.Pages {
		for _, c := range p.Code {
			for _, line := range commandLines(c) {
				checked++
				if err := cli.check(line); err != nil {
					t.Errorf("%s: %q: %v", p.Slug, strings.Join(line, " "), err)
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d command lines found", checked)
	}
}

func TestCommandLineCheckerRefusesMistakes(t *testing.T) {
	cli := newCLI(t)
	for _, bad := range []string{
		"streamctl plna",
		"streamctl plan -auto-approve",
		"streamctl apply -parallelism=lots",
		"streamctl apply orders.plan -auto-approve",
		"streamctl -chdir",
		"streamctl -colour plan",
	} {
		for _, line := range commandLines(Code{Lang: "shell", Text: bad}) {
			if err := cli.check(line); err == nil {
				t.Errorf("%q passes the check", bad)
			}
		}
	}
	for _, good := range []string{
		"streamctl -chdir=x plan -out=p -var 'a=b' -detailed-exitcode",
		"go run . -chdir=examples/quickstart apply -auto-approve",
		"streamctl state show orders",
		"streamctl apply -lock-timeout 30s orders.plan",
	} {
		lines := commandLines(Code{Lang: "shell", Text: good})
		if len(lines) != 1 {
			t.Fatalf("%q: found %d command lines", good, len(lines))
		}
		if err := cli.check(lines[0]); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

// commandLines extracts the streamctl invocations of a code block or span, as
// argument lists after the program name.
func commandLines(c Code) [][]string {
	switch {
	case c.Inline:
		if !strings.HasPrefix(c.Text, "streamctl ") {
			return nil
		}
	case c.Lang == "shell" || c.Lang == "sh" || c.Lang == "bash" || c.Lang == "console" || c.Lang == "yaml":
	default:
		return nil
	}
	text := strings.ReplaceAll(c.Text, "\\\n", " ")
	var out [][]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
		words := shellWords(line)
		commandPos := true
		for i := 0; i < len(words); i++ {
			w := words[i]
			atCommand := commandPos
			// Words before the command: assignments, YAML's "run:" and "- ".
			commandPos = !w.word || isPrefixWord(w.text) && commandPos
			if !atCommand {
				continue
			}
			var args []string
			switch {
			case w.word && (w.text == "streamctl" || strings.HasSuffix(w.text, "/streamctl")):
				args = argsUntilOperator(words[i+1:])
			case w.word && w.text == "go" && i+2 < len(words) && words[i+1].text == "run" && words[i+2].text == ".":
				args = argsUntilOperator(words[i+3:])
				i += 2
			default:
				continue
			}
			// A bare name (a YAML value, a user name) is not a command line.
			if len(args) > 0 || c.Inline {
				out = append(out, args)
			}
		}
	}
	return out
}

// isPrefixWord reports whether a word may come before the command of a
// shell line: an environment assignment, or YAML's "run:" and "-".
func isPrefixWord(w string) bool {
	if w == "run:" || w == "-" || w == "exec" || w == "sudo" {
		return true
	}
	k, _, ok := strings.Cut(w, "=")
	if !ok || k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

type shellWord struct {
	text string
	word bool // false for operators: | || && ; > >> 2>&1 < #
}

// shellWords splits a command line as a shell would, well enough for docs:
// quotes, operators, comments.
func shellWords(line string) []shellWord {
	var out []shellWord
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, shellWord{text: cur.String(), word: true})
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'' || c == '"':
			inWord = true
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				cur.WriteString(line[i+1:])
				i = len(line)
			} else {
				cur.WriteString(line[i+1 : i+1+j])
				i += j + 1
			}
		case c == '#' && !inWord:
			flush()
			out = append(out, shellWord{text: "#"})
			return out
		case strings.IndexByte("|&;<>", c) >= 0:
			if c == '>' && inWord && cur.String() == "2" {
				cur.Reset()
				inWord = false
			}
			flush()
			j := i
			for j < len(line) && strings.IndexByte("|&;<>12", line[j]) >= 0 {
				j++
			}
			out = append(out, shellWord{text: line[i:j]})
			i = j - 1
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

func argsUntilOperator(words []shellWord) []string {
	var args []string
	for _, w := range words {
		if !w.word {
			break
		}
		args = append(args, w.text)
	}
	return args
}

// cli knows the commands and checks arguments with their real parsers.
type cli struct {
	t     *testing.T
	cmds  map[string]*cmdSpec
	cache map[string]string
}

type cmdSpec struct {
	help    CommandHelp
	options map[string]Option
}

func newCLI(t *testing.T) *cli {
	helps, err := Commands()
	if err != nil {
		t.Fatal(err)
	}
	c := &cli{t: t, cmds: map[string]*cmdSpec{}, cache: map[string]string{}}
	for _, h := range helps {
		spec := &cmdSpec{help: h, options: map[string]Option{}}
		for _, o := range h.Options {
			spec.options[o.Flag] = o
		}
		c.cmds[h.Name] = spec
	}
	return c
}

func (c *cli) names() []string {
	var out []string
	for n := range c.cmds {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// parses runs command name's Run with args then -h, in an empty directory,
// and returns "" when the flag parser accepted args, else its complaint.
func (c *cli) parses(name string, args []string) string {
	key := name + "\x00" + strings.Join(args, "\x00")
	if msg, ok := c.cache[key]; ok {
		return msg
	}
	var stdout, stderr bytes.Buffer
	m := &command.Meta{
		Streams: command.Streams{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Environ: []string{}},
		Dir:     c.t.TempDir(),
	}
	cmd, err := command.Commands(m)[name]()
	if err != nil {
		c.t.Fatal(err)
	}
	cmd.Run(append(append([]string(nil), args...), "-h"))
	msg := ""
	if !strings.Contains(stderr.String(), "help requested") {
		msg, _, _ = strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = "the command ran without parsing its flags first"
		}
	}
	c.cache[key] = msg
	return msg
}

// check checks the arguments of one streamctl invocation.
func (c *cli) check(args []string) error {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		name, _, hasValue := strings.Cut(args[i], "=")
		switch strings.TrimPrefix(name, "-") {
		case "-chdir", "chdir":
			if !hasValue {
				if i+1 >= len(args) {
					return fmt.Errorf("-chdir needs a directory")
				}
				i++
			}
		case "help", "h", "-help", "version", "v", "-version":
		default:
			return fmt.Errorf("unknown global option %s", args[i])
		}
		i++
	}
	if i == len(args) {
		return nil
	}
	name := args[i]
	if i+1 < len(args) && c.cmds[name+" "+args[i+1]] != nil {
		name += " " + args[i+1]
		i++
	}
	spec := c.cmds[name]
	if spec == nil {
		return fmt.Errorf("no command %q (commands: %s)", name, strings.Join(c.names(), ", "))
	}
	positional := false
	for i++; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = true
			continue
		}
		flagName, _, hasValue := strings.Cut(a, "=")
		flagName = "-" + strings.TrimLeft(flagName, "-")
		if flagName == "-h" || flagName == "-help" {
			continue
		}
		if positional {
			return fmt.Errorf("option %s comes after an argument: the command would take it as an argument", a)
		}
		o, ok := spec.options[flagName]
		if !ok {
			return fmt.Errorf("streamctl %s has no option %s", name, flagName)
		}
		parse := []string{a}
		if !hasValue && o.TakesValue() {
			if i+1 >= len(args) {
				return fmt.Errorf("option %s needs a value", a)
			}
			i++
			parse = append(parse, args[i])
		}
		if msg := c.parses(name, parse); msg != "" {
			return fmt.Errorf("streamctl %s refuses %s: %s", name, strings.Join(parse, " "), msg)
		}
	}
	return nil
}
