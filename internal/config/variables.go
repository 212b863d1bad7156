package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// SensitiveMark marks values that come from sensitive variables.
const SensitiveMark = "sensitive"

type variableDecl struct {
	v       *Variable
	typ     cty.Type
	def     cty.Value
	hasDef  bool
	typeSet bool
	// validations are the variable's validation blocks, in order.
	validations []*variableValidation
}

func (l *loader) decodeVariables(blocks []*hcl.Block, in Inputs) {
	decls := map[string]*variableDecl{}
	for _, b := range blocks {
		name := b.Labels[0]
		if !validName(name) {
			l.errorf(&b.LabelRanges[0], "Invalid variable name", "%q is not a valid name: use letters, digits, '_' and '-', starting with a letter.", name)
			continue
		}
		if prev, dup := decls[name]; dup {
			l.errorf(&b.DefRange, "Duplicate variable", "A variable %q was already declared at %s.", name, prev.v.DeclRange)
			continue
		}
		content, diags := b.Body.Content(&hcl.BodySchema{
			Attributes: []hcl.AttributeSchema{
				{Name: "default"}, {Name: "type"}, {Name: "description"}, {Name: "sensitive"},
			},
			Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
		})
		l.diags = append(l.diags, diags...)
		d := &variableDecl{v: &Variable{Name: name, DeclRange: b.DefRange}, typ: cty.DynamicPseudoType}
		for _, vb := range content.Blocks {
			if val := l.decodeValidation(name, vb); val != nil {
				d.validations = append(d.validations, val)
			}
		}
		if a, ok := content.Attributes["type"]; ok {
			ty, diags := typeexpr.TypeConstraint(a.Expr)
			l.diags = append(l.diags, diags...)
			if !diags.HasErrors() {
				d.typ, d.typeSet = ty, true
			}
		}
		if a, ok := content.Attributes["description"]; ok {
			v, diags := a.Expr.Value(nil)
			l.diags = append(l.diags, diags...)
			if !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				d.v.Description = v.AsString()
			}
		}
		if a, ok := content.Attributes["sensitive"]; ok {
			v, diags := a.Expr.Value(nil)
			l.diags = append(l.diags, diags...)
			if !diags.HasErrors() {
				if v.Type() != cty.Bool || v.IsNull() {
					l.errorf(a.Expr.Range().Ptr(), "Invalid sensitive value", "sensitive must be true or false.")
				} else {
					d.v.Sensitive = v.True()
				}
			}
		}
		if a, ok := content.Attributes["default"]; ok {
			v, diags := a.Expr.Value(nil)
			l.diags = append(l.diags, diags...)
			if !diags.HasErrors() {
				cv, err := convert.Convert(v, d.typ)
				if err != nil {
					l.errorf(a.Expr.Range().Ptr(), "Invalid default value", "The default of variable %q does not match its type %s: %v.", name, typeexpr.TypeString(d.typ), err)
				} else {
					d.def, d.hasDef = cv, true
				}
			}
		}
		decls[name] = d
		l.cfg.Variables[name] = d.v
	}

	values := map[string]cty.Value{}
	origins := map[string]string{} // where each value given from outside came from
	set := func(name string, src varSource) {
		d, ok := decls[name]
		if !ok {
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("%s sets a variable %q that the configuration does not declare. Declare it with a variable block, or remove the value.", src.origin(), name),
				Subject:  src.nameRange,
			})
			return
		}
		if v, ok := l.inputValue(name, d, src); ok {
			values[name] = v
			origins[name] = src.origin() + " set it"
		}
	}

	// Terraform's precedence: defaults, environment, auto files, then -var and
	// -var-file in command-line order.
	env := append([]string(nil), in.Environ...)
	sort.Strings(env)
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, EnvPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, EnvPrefix)
		if _, declared := decls[name]; !declared {
			continue // like Terraform: stray environment variables are ignored
		}
		set(name, varSource{env: k, text: v})
	}
	autoFiles := []string{filepath.Join(l.cfg.Dir, AutoVarsFile)}
	more, _ := filepath.Glob(filepath.Join(l.cfg.Dir, "*.auto.vars"))
	sort.Strings(more)
	autoFiles = append(autoFiles, more...)
	for _, f := range autoFiles {
		if _, err := os.Stat(f); err == nil {
			l.loadVarFile(f, set)
		}
	}
	for _, a := range in.Args {
		if a.File {
			l.loadVarFile(a.Value, set)
			continue
		}
		name, val, ok := strings.Cut(a.Value, "=")
		if !ok || name == "" {
			l.errorf(nil, "Invalid -var option", "The option -var %q is not of the form NAME=VALUE.", a.Value)
			continue
		}
		set(strings.TrimSpace(name), varSource{flag: a.Value, text: val})
	}

	l.applySaved(decls, values, in.Saved)

	l.varValues = map[string]cty.Value{}
	vars := map[string]cty.Value{}
	for name, d := range decls {
		v, ok := values[name]
		if !ok {
			switch {
			case !d.hasDef && d.v.Sensitive && in.Validate:
				// validate checks the configuration without its secrets
				// (a fork's pull request has none): the value is unknown,
				// and what is made of it is checked by plan.
				v = cty.UnknownVal(d.typ)
				l.unknowns = true
			case !d.hasDef:
				l.errorf(&d.v.DeclRange, "No value for required variable", "The variable %q has no default and no value was given. Set it with -var '%s=…', a -var-file, the environment variable %s%s, or a %s file.", name, name, EnvPrefix, name, AutoVarsFile)
				v = cty.UnknownVal(d.typ)
			default:
				v = d.def
				origins[name] = "The value is the default"
			}
		}
		l.checkValidations(name, d, v, origins[name])
		l.varValues[name] = v
		if d.v.Sensitive {
			v = v.Mark(SensitiveMark)
		}
		vars[name] = v
	}
	l.ctx = &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)},
		Functions: functions(),
	}
	plainVars, _ := cty.ObjectVal(vars).UnmarkDeep()
	l.plain = &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": plainVars},
		Functions: l.ctx.Functions,
	}
}

func (l *loader) loadVarFile(path string, set func(string, varSource)) {
	src, err := os.ReadFile(path)
	if err != nil {
		l.errorf(nil, "Cannot read variables file", "%v", err)
		return
	}
	f, diags := l.parser.ParseHCL(src, l.relName(path))
	l.diags = append(l.diags, diags...)
	if f == nil || diags.HasErrors() {
		return
	}
	attrs, diags := f.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := attrs[n]
		text := string(a.Expr.Range().SliceBytes(src))
		set(n, varSource{file: l.relName(path), text: text, expr: a.Expr, nameRange: a.NameRange.Ptr()})
	}
}

// evalLocals evaluates the locals of every locals block, in dependency order.
func (l *loader) evalLocals(blocks []*hcl.Block) {
	pending := map[string]*hcl.Attribute{}
	for _, b := range blocks {
		attrs, diags := b.Body.JustAttributes()
		l.diags = append(l.diags, diags...)
		for name, a := range attrs {
			if prev, dup := pending[name]; dup {
				l.errorf(&a.NameRange, "Duplicate local value", "A local value %q was already defined at %s.", name, prev.NameRange)
				continue
			}
			pending[name] = a
		}
	}
	locals := map[string]cty.Value{}
	update := func() {
		obj := cty.ObjectVal(locals)
		l.ctx.Variables["local"] = obj
		l.plain.Variables["local"], _ = obj.UnmarkDeep()
	}
	update()
	for len(pending) > 0 {
		progressed := false
		names := sortedKeys(pending)
		for _, name := range names {
			a := pending[name]
			ready := true
			for _, t := range a.Expr.Variables() {
				if t.RootName() != "local" || len(t) < 2 {
					continue
				}
				if attr, ok := t[1].(hcl.TraverseAttr); ok {
					if _, done := locals[attr.Name]; !done {
						if _, exists := pending[attr.Name]; exists {
							ready = false
						}
					}
				}
			}
			if !ready {
				continue
			}
			v, diags := a.Expr.Value(l.ctx)
			l.diags = append(l.diags, diags...)
			if diags.HasErrors() {
				v = cty.DynamicVal
			}
			locals[name] = v
			delete(pending, name)
			progressed = true
			update()
		}
		if !progressed {
			for _, name := range sortedKeys(pending) {
				a := pending[name]
				l.errorf(&a.NameRange, "Cycle in local values", "The local value %q depends on itself through other local values.", name)
			}
			return
		}
	}
}

// renderValue renders a value for hashing and messages; marks are removed.
func renderValue(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() {
		return "(unknown)"
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return v.GoString()
	}
	return string(b)
}
