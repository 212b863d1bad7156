package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// A saved plan carries the values of the variables it was made with, as
// Terraform's plan files do, so that `apply PLAN` runs with them whatever the
// command line says. Sensitive values are never saved: apply takes them from
// -var, -var-file or STREAMCTL_VAR_ again, and they are not in the hash.

// SavedValues are variable values as a plan file keeps them: each the JSON of
// the value with its type.
type SavedValues map[string]ctyjson.SimpleJSONValue

// Saved returns the values of the non-sensitive variables, for a plan file.
func (c *Config) Saved() SavedValues {
	out := SavedValues{}
	for name, v := range c.values {
		if d := c.Variables[name]; d == nil || d.Sensitive || !v.IsWhollyKnown() {
			continue
		}
		out[name] = ctyjson.SimpleJSONValue{Value: v}
	}
	return out
}

// applySaved sets the variables a saved plan fixes. Another value given for
// one of them is refused rather than silently overridden, as Terraform
// refuses variables beside a saved plan. A sensitive variable in a plan file
// (edited by hand) is refused: its value must come from outside.
func (l *loader) applySaved(decls map[string]*variableDecl, values map[string]cty.Value, saved SavedValues) {
	names := make([]string, 0, len(saved))
	for n := range saved {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		d, ok := decls[name]
		switch {
		case !ok:
			l.errorf(nil, "Saved plan sets an undeclared variable", "The plan file sets variable %q, which the configuration does not declare: the configuration changed since the plan was made. Run streamctl plan again.", name)
			continue
		case d.v.Sensitive:
			l.errorf(nil, "Saved plan holds a sensitive variable", "The plan file sets the sensitive variable %q; streamctl never saves sensitive values. The file was not written by streamctl plan: make the plan again.", name)
			continue
		}
		raw := saved[name].Value
		if raw == cty.NilVal {
			raw = cty.NullVal(cty.DynamicPseudoType)
		}
		v, err := convert.Convert(raw, d.typ)
		if err != nil {
			l.errorf(nil, "Invalid saved variable", "The plan file's value of variable %q does not match its type %s: %v. Run streamctl plan again.", name, typeexpr.TypeString(d.typ), err)
			continue
		}
		if given, ok := values[name]; ok && !given.RawEquals(v) {
			l.errorf(nil, "Variable fixed by the saved plan", "The plan file was made with variable %q = %s, and this run gives it %s (-var, -var-file, %s%s or an auto file). A saved plan runs with the values it was made with: drop the other value, or make the plan again with it.", name, renderValue(v), renderValue(given), EnvPrefix, name)
			continue
		}
		values[name] = v
	}
}
