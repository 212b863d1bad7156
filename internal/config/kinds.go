package config

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/providers"
)

// defaultState is the kind of the state of a configuration without a state
// block: `state "local" {}`, a file beside the configuration.
const defaultState = "local"

// kindTypes lists, sorted, the types of the kinds that play a role.
func (l *loader) kindTypes(plays func(*providers.Kind) bool) string {
	var types []string
	for _, k := range l.kinds {
		if plays(k) {
			types = append(types, k.Type)
		}
	}
	sort.Strings(types)
	return strings.Join(types, ", ")
}

func isSource(k *providers.Kind) bool      { return k.Source != nil }
func isDestination(k *providers.Kind) bool { return k.Destination != nil }
func isState(k *providers.Kind) bool       { return k.State != nil }

// decodeKind decodes body, the part of block b that belongs to the kind, as
// kb says. It returns the config, or nil when the block is invalid.
func (l *loader) decodeKind(kb *providers.Body, b *hcl.Block, body hcl.Body) any {
	blk := &kindBlock{l: l, b: b, body: body}
	var cfg any
	if kb.Decode != nil {
		cfg = kb.Decode(blk)
	} else {
		cfg = reflect.New(reflect.TypeOf(kb.Config)).Interface()
		if !blk.Decode(cfg) {
			cfg = nil
		}
	}
	if cfg == nil {
		return nil
	}
	l.checkSecrets(b.Body, kb.Secrets)
	if v, ok := cfg.(interface{ Validate() error }); ok {
		l.checkProvider(b, v.Validate())
	}
	return cfg
}

// kindBlock is a block as a kind's Decode sees it. Errors point into b, the
// whole block; Decode decodes body, what is left of it for the kind.
type kindBlock struct {
	l    *loader
	b    *hcl.Block
	body hcl.Body
}

func (k *kindBlock) Decode(target any) bool { return k.l.decode(k.body, target) }

func (k *kindBlock) Errorf(attr, summary, format string, args ...any) {
	k.l.errorf(attrRange(k.b.Body, attr, &k.b.DefRange), summary, format, args...)
}

func (k *kindBlock) Getenv(key string) string { return k.l.getenv(key) }
func (k *kindBlock) Dir() string              { return k.l.cfg.Dir }
func (k *kindBlock) Path(p string) string     { return k.l.absPath(p) }

// decodeState decodes `state "TYPE"`. A kind that keeps the state in a
// storage names the object with `key`, taken out before the kind decodes the
// rest.
func (l *loader) decodeState(b *hcl.Block) {
	typ := b.Labels[0]
	l.cfg.State = StateConfig{Type: typ, DeclRange: b.DefRange}
	k := l.kinds.Lookup(typ)
	if k == nil || k.State == nil {
		l.errorf(&b.LabelRanges[0], "Unknown state backend", "There is no state backend %q. Use one of: %s.", typ, l.kindTypes(isState))
		return
	}
	role := k.State
	keyed := role.Open != nil
	paths := role.Paths
	if keyed {
		paths = append(slices.Clip(paths), "key")
	}
	l.checkSensitivePaths(b.Body, paths, fmt.Sprintf("the %s state", typ))
	body, key := b.Body, ""
	if keyed {
		var raw struct {
			Key    string   `hcl:"key"`
			Remain hcl.Body `hcl:",remain"`
		}
		if !l.decode(b.Body, &raw) {
			return
		}
		body, key = raw.Remain, strings.Trim(raw.Key, "/")
	}
	cfg := l.decodeKind(&role.Body, b, body)
	if cfg == nil {
		return
	}
	if keyed && key == "" {
		l.errorf(attrRange(b.Body, "key", &b.DefRange), "Invalid key", "key names the state object, e.g. \"streamctl/orders.json\"; it must not be empty.")
		return
	}
	l.cfg.State.Config = cfg
	l.cfg.State.Key = key
}

// decodeDefaultState is the state without a state block.
func (l *loader) decodeDefaultState() {
	l.cfg.State = StateConfig{Type: defaultState}
	if k := l.kinds.Lookup(defaultState); k != nil && k.State != nil {
		b := &hcl.Block{Type: "state", Labels: []string{defaultState}, Body: hcl.EmptyBody()}
		l.cfg.State.Config = l.decodeKind(&k.State.Body, b, b.Body)
	}
}

// checkSecrets refuses secret attributes whose value is not marked sensitive.
// "sasl.password" names the attribute password of the nested block sasl.
func (l *loader) checkSecrets(body hcl.Body, names []string) {
	var here, nested []string
	for _, n := range names {
		if strings.Contains(n, ".") {
			nested = append(nested, n)
		} else {
			here = append(here, n)
		}
	}
	l.eachValue(body, here, func(n string, a *hcl.Attribute, v cty.Value) {
		if !v.IsNull() && !v.HasMark(SensitiveMark) {
			l.errorf(a.Expr.Range().Ptr(), "Secret from plain text", "%s is a secret and must come from a variable declared with sensitive = true (or from the environment), so that it is never written in a configuration file nor shown in output.", n)
		}
	})
	for _, n := range nested {
		typ, attr, _ := strings.Cut(n, ".")
		if inner := nestedBlock(body, typ); inner != nil {
			l.checkSecrets(inner, []string{attr})
		}
	}
}

// eachValue evaluates the attributes names of body that are set, and calls
// fn with each value, marks kept. Errors are left to the block's decoding,
// which reports them.
func (l *loader) eachValue(body hcl.Body, names []string, fn func(name string, a *hcl.Attribute, v cty.Value)) {
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	content, _, _ := body.PartialContent(schema)
	if content == nil {
		return
	}
	for _, n := range names {
		a, ok := content.Attributes[n]
		if !ok {
			continue
		}
		if v, diags := a.Expr.Value(l.ctx); !diags.HasErrors() {
			fn(n, a, v)
		}
	}
}

// checkProvider turns a config's Validate errors into diagnostics that point
// at the offending attribute.
func (l *loader) checkProvider(b *hcl.Block, err error) {
	if err == nil {
		return
	}
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		// Provider messages start with the attribute's name.
		attr, _, _ := strings.Cut(e.Error(), ":")
		l.errorf(attrRange(b.Body, attr, &b.DefRange), fmt.Sprintf("Invalid %s %q", b.Type, strings.Join(b.Labels, ".")), "%v.", strings.TrimSuffix(e.Error(), "."))
	}
}

// attrRange is the range of attribute name in body, or def when absent.
func attrRange(body hcl.Body, name string, def *hcl.Range) *hcl.Range {
	if sb, ok := body.(*hclsyntax.Body); ok {
		if a, ok := sb.Attributes[name]; ok {
			return a.Expr.Range().Ptr()
		}
	}
	return def
}

// nestedBlock returns the body of the first block of type typ inside body.
func nestedBlock(body hcl.Body, typ string) hcl.Body {
	if sb, ok := body.(*hclsyntax.Body); ok {
		for _, blk := range sb.Blocks {
			if blk.Type == typ {
				return blk.Body
			}
		}
	}
	return nil
}

// checkSharedSources asks the kind of each source read by more than one sink
// whether that is allowed.
func (l *loader) checkSharedSources() {
	readers := map[string][]string{}
	for _, s := range l.cfg.Sinks {
		readers[s.Source] = append(readers[s.Source], s.Name)
	}
	for key, src := range l.cfg.Sources {
		k := l.kinds.Lookup(src.Type)
		if src.Config == nil || k == nil || k.Source.Shared == nil || len(readers[key]) < 2 {
			continue
		}
		if summary, detail := k.Source.Shared(src.Config, key, readers[key]); summary != "" {
			rng := src.DeclRange
			l.errorf(&rng, summary, "%s", detail)
		}
	}
}

// checkColumnsFrom refuses columns = "from_schema" on a sink whose source
// reads no schema registry: there is no schema to take columns from.
func (l *loader) checkColumnsFrom() {
	for _, s := range l.cfg.Sinks {
		src := l.cfg.Sources[s.Source]
		if s.ColumnsFrom == "" || src == nil || src.Config == nil {
			continue
		}
		if k := l.kinds.Lookup(src.Type); k != nil && k.Source.RegistrySubject != nil && k.Source.RegistrySubject(src.Config) != "" {
			continue
		}
		rng := s.DeclRange
		l.errorf(&rng, "No schema to take columns from", "Sink %q takes its columns from its source's schema (columns = %q), but source.%s reads no schema registry: only a kafka source with value_format = \"avro\", \"protobuf\" or \"json_schema\" has one. Declare the columns with column blocks instead.", s.Name, s.ColumnsFrom, s.Source)
	}
}
