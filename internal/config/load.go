package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/providers"
)

// Inputs are the variable values given from outside the configuration.
type Inputs struct {
	// Args are -var and -var-file arguments in command-line order; later ones win.
	Args []VarArg
	// Environ is the process environment (STREAMCTL_VAR_<name>).
	Environ []string
	// Saved are the values a saved plan was made with; they win over every
	// other source.
	Saved SavedValues
	// Validate loads for streamctl validate: a sensitive variable without a
	// value is unknown instead of an error, and the attributes made of it
	// are not checked.
	Validate bool
	// Version is the binary's version, compared with the configuration's
	// required_version; "" does not check it.
	Version string
}

// VarArg is one -var NAME=VALUE (File false) or -var-file=PATH (File true).
type VarArg struct {
	File  bool
	Value string
}

// EnvPrefix prefixes environment variables that set input variables.
const EnvPrefix = "STREAMCTL_VAR_"

// AutoVarsFiles are loaded from the configuration directory, in this order,
// before -var and -var-file: "streamctl.vars", then "*.auto.vars" in name order.
const AutoVarsFile = "streamctl.vars"

var topSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "streamctl"},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "source", LabelNames: []string{"type", "name"}},
		{Type: "sink", LabelNames: []string{"name"}},
		{Type: "moved"},
	},
}

// loader carries the state of one Load.
type loader struct {
	cfg    *Config
	kinds  providers.Kinds
	parser *hclparse.Parser
	diags  hcl.Diagnostics
	// ctx evaluates with sensitive values marked; plain with marks removed, for
	// decoding into Go values.
	ctx   *hcl.EvalContext
	plain *hcl.EvalContext
	// varValues are the variables' final values, unmarked, for the hash.
	varValues   map[string]cty.Value
	pendingRefs []sourceRefCheck
	environ     []string
	// unknowns is set when a variable's value is unknown (validate without
	// a sensitive value): attributes that are not known are left out of
	// decoding.
	unknowns bool
	// version is Inputs.Version.
	version string
	// budget bounds what evaluating the configuration produces.
	budget budget
}

// getenv reads the environment given to Load, not the process's, so that
// commands run in process see their own.
func (l *loader) getenv(key string) string {
	for _, kv := range l.environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// Load reads and evaluates the configuration in dir. Its sources,
// destinations and state are blocks of the given kinds.
func Load(dir string, kinds providers.Kinds, in Inputs) (*Config, hcl.Diagnostics) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid configuration directory", Detail: err.Error()}}
	}
	l := &loader{
		cfg:     &Config{Dir: abs, Variables: map[string]*Variable{}, Sources: map[string]*Source{}},
		kinds:   kinds,
		parser:  hclparse.NewParser(),
		environ: in.Environ,
		version: in.Version,
	}
	l.cfg.Files = l.parser.Files()
	files, hashInput := l.parseDir(abs)
	if l.diags.HasErrors() {
		return l.cfg, l.diags
	}
	if l.checkInputNesting(in); l.diags.HasErrors() {
		return l.cfg, l.diags
	}
	for _, f := range files {
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			for _, b := range body.Blocks {
				// Variable blocks are evaluated without functions (and read
				// again so by the output's masking): left as they are.
				if b.Type != "variable" {
					guardExpressions(b.Body)
				}
			}
		}
	}

	var (
		streamctlBlocks, variableBlocks, localsBlocks, sourceBlocks, sinkBlocks, movedBlocks []*hcl.Block
	)
	for _, f := range files {
		content, diags := f.Body.Content(topSchema)
		l.diags = append(l.diags, diags...)
		if content == nil {
			continue
		}
		for _, b := range content.Blocks {
			switch b.Type {
			case "streamctl":
				streamctlBlocks = append(streamctlBlocks, b)
			case "variable":
				variableBlocks = append(variableBlocks, b)
			case "locals":
				localsBlocks = append(localsBlocks, b)
			case "source":
				sourceBlocks = append(sourceBlocks, b)
			case "sink":
				sinkBlocks = append(sinkBlocks, b)
			case "moved":
				movedBlocks = append(movedBlocks, b)
			}
		}
	}

	l.decodeVariables(variableBlocks, in)
	l.guard(l.ctx.Functions) // l.plain shares the map
	l.evalLocals(localsBlocks)
	if !l.checkLocals(localsBlocks) || l.budget.used > maxEvalBytes {
		// Decoding the rest would only repeat the refusal, or decode a
		// value too large to hold.
		return l.cfg, tidyTooLarge(l.diags)
	}
	l.decodeStreamctl(streamctlBlocks)
	for _, b := range sourceBlocks {
		l.decodeSource(b)
	}
	for _, b := range sinkBlocks {
		l.decodeSink(b)
	}
	sort.Slice(l.cfg.Sinks, func(i, j int) bool { return l.cfg.Sinks[i].Name < l.cfg.Sinks[j].Name })
	for _, b := range movedBlocks {
		l.decodeMoved(b)
	}
	l.checkMoved()
	l.checkSharedDestinations()
	l.checkSharedSources()
	l.checkColumnsFrom()
	l.expandShards()
	l.cfg.Hash = l.hash(hashInput)
	l.cfg.values = l.varValues
	return l.cfg, tidyTooLarge(l.diags)
}

// parseDir parses every *.hcl file of dir, in name order.
func (l *loader) parseDir(dir string) ([]*hcl.File, []byte) {
	names, err := filepath.Glob(filepath.Join(dir, "*.hcl"))
	if err != nil || len(names) == 0 {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "No configuration files",
			Detail:   fmt.Sprintf("The directory %s has no *.hcl files. Run streamctl in a directory with a configuration, or pass -chdir=DIR.", dir),
		})
		return nil, nil
	}
	sort.Strings(names)
	var files []*hcl.File
	h := sha256.New()
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read configuration file", Detail: err.Error()})
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(name), len(src))
		h.Write(src)
		if d := checkNesting(src, l.relName(name), "The file "+l.relName(name)); d != nil {
			l.diags = append(l.diags, d)
			continue
		}
		f, diags := l.parser.ParseHCL(src, l.relName(name))
		l.diags = append(l.diags, diags...)
		if f != nil {
			files = append(files, f)
		}
	}
	return files, h.Sum(nil)
}

// relName is how a file is named in diagnostics: relative to the working
// directory when that is shorter.
func (l *loader) relName(name string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return name
}

func (l *loader) hash(files []byte) string {
	h := sha256.New()
	h.Write(files)
	names := make([]string, 0, len(l.varValues))
	for n := range l.varValues {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := l.cfg.Variables[n]
		if v != nil && v.Sensitive {
			continue // a secret's value never leaves the process, hashed or not
		}
		fmt.Fprintf(h, "var %s=%s\n", n, renderValue(l.varValues[n]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (l *loader) errorf(rng *hcl.Range, summary, format string, args ...any) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng,
	})
}

// decode decodes body into target with gohcl, using the plain context.
func (l *loader) decode(body hcl.Body, target any) bool {
	if l.unknowns {
		body = knownBody{Body: body, ctx: l.plain}
	}
	diags := gohcl.DecodeBody(body, l.plain, target)
	l.diags = append(l.diags, diags...)
	return !diags.HasErrors()
}

func (l *loader) decodeStreamctl(blocks []*hcl.Block) {
	l.decodeDefaultState()
	if len(blocks) > 1 {
		l.errorf(&blocks[1].DefRange, "Duplicate streamctl block", "Only one streamctl block is allowed; another is at %s.", blocks[0].DefRange)
	}
	if len(blocks) == 0 {
		return
	}
	content, diags := blocks[0].Body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "required_version"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "state", LabelNames: []string{"type"}}},
	})
	l.diags = append(l.diags, diags...)
	if content == nil {
		return
	}
	if a, ok := content.Attributes["required_version"]; ok {
		l.checkRequiredVersion(a, l.version)
	}
	for i, b := range content.Blocks {
		if i > 0 {
			l.errorf(&b.DefRange, "Duplicate state block", "Only one state block is allowed.")
			continue
		}
		l.decodeState(b)
	}
}

func (l *loader) decodeSource(b *hcl.Block) {
	typ, name := b.Labels[0], b.Labels[1]
	src := &Source{Type: typ, Name: name, DeclRange: b.DefRange}
	if !validName(name) {
		l.errorf(&b.LabelRanges[1], "Invalid source name", "%q is not a valid name: use letters, digits, '_' and '-', starting with a letter.", name)
	}
	if prev, dup := l.cfg.Sources[src.Key()]; dup {
		l.errorf(&b.DefRange, "Duplicate source", "A source %q was already declared at %s.", src.Key(), prev.DeclRange)
		return
	}
	k := l.kinds.Lookup(typ)
	if k == nil || k.Source == nil {
		l.errorf(&b.LabelRanges[0], "Unknown source type", "There is no source type %q. Use one of: %s.", typ, l.kindTypes(isSource))
		return
	}
	src.Config = l.decodeKind(&k.Source.Body, b, b.Body)
	l.cfg.Sources[src.Key()] = src
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validName accepts the names blocks may have: they become folder names and
// JSON keys, so they are kept simple.
func validName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// absPath resolves p against the configuration directory.
func (l *loader) absPath(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(l.cfg.Dir, p)
}
