package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// varSource is where a variable's value was given from outside the
// configuration: one of flag, env and file is set.
type varSource struct {
	flag string // -var: the option's NAME=VALUE
	env  string // the environment variable's name
	file string // the variables file, as messages name it
	// text is the value as given: the text after NAME= (-var, environment),
	// or the expression's source in a variables file.
	text      string
	expr      hcl.Expression // in a variables file
	nameRange *hcl.Range     // in a variables file: the attribute's name
}

// origin names the source at the start of a sentence.
func (s varSource) origin() string {
	switch {
	case s.file != "":
		return "The variables file " + s.file
	case s.env != "":
		return "The environment variable " + s.env
	default:
		return fmt.Sprintf("The option -var %q", s.flag)
	}
}

// given names the source with the value it gave, as the user typed it; a
// sensitive value is not repeated, since a failed load masks nothing.
func (s varSource) given(name string, sensitive bool) string {
	switch {
	case s.file != "" && sensitive:
		return fmt.Sprintf("the variables file %s sets %s", s.file, name)
	case s.file != "":
		return fmt.Sprintf("the variables file %s sets %s = %s", s.file, name, s.text)
	case s.env != "" && sensitive:
		return "the environment variable " + s.env + "=(sensitive)"
	case s.env != "":
		return "the environment variable " + s.env + "=" + shellQuote(s.text)
	case sensitive:
		return "-var " + name + "=(sensitive)"
	default:
		return "-var " + shellQuote(s.flag)
	}
}

// inputValue converts a value given from outside to the variable's type, or
// reports why it cannot. Text (-var, environment) is the value itself for a
// string or untyped variable; for any other type it is HCL, as in a
// variables file.
func (l *loader) inputValue(name string, d *variableDecl, src varSource) (cty.Value, bool) {
	expr := src.expr
	if expr == nil {
		if d.typ == cty.String || d.typ == cty.DynamicPseudoType {
			return cty.StringVal(src.text), true
		}
		e, diags := hclsyntax.ParseExpression([]byte(src.text), src.origin(), hcl.InitialPos)
		if diags.HasErrors() {
			return l.badInput(name, d, src, notAValue(d.typ, src, nil, diags))
		}
		expr = e
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return l.badInput(name, d, src, notAValue(d.typ, src, expr, diags))
	}
	cv, err := convert.Convert(v, d.typ)
	switch {
	case err != nil && d.typ.IsPrimitiveType():
		// cty's "bool required, but have number" for a 1 given as a bool.
		return l.badInput(name, d, src, required(d.typ))
	case err != nil:
		return l.badInput(name, d, src, convertProblem(err))
	}
	return cv, true
}

func (l *loader) badInput(name string, d *variableDecl, src varSource, problem string) (cty.Value, bool) {
	given := src.given(name, d.v.Sensitive)
	detail := strings.ToUpper(given[:1]) + given[1:] + ": " + problem
	if d.typeSet {
		detail += fmt.Sprintf(" (the variable is declared type = %s)", typeexpr.TypeString(d.typ))
	}
	var subject *hcl.Range
	if src.expr != nil {
		subject = src.expr.Range().Ptr()
	}
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid value for variable %q", name),
		Detail:   detail + ".",
		Subject:  subject,
	})
	return cty.NilVal, false
}

// notAValue says why a given value is not a value of type ty: diags are
// from parsing it (expr nil) or evaluating expr.
func notAValue(ty cty.Type, src varSource, expr hcl.Expression, diags hcl.Diagnostics) string {
	if src.expr == nil && ty.IsPrimitiveType() {
		// Text typed for a number or a bool: that it is no HCL either is
		// beside the point.
		return required(ty)
	}
	hint := "write strings in double quotes, e.g. " + example(ty, 0)
	if ty == cty.Number || ty == cty.Bool {
		hint = required(ty)
	}
	switch {
	case expr == nil:
		return fmt.Sprintf("this is not HCL (%s), and a value of type %s is written in HCL, e.g. %s", strings.ToLower(diags[0].Summary), typeexpr.TypeString(ty), example(ty, 0))
	case len(expr.Variables()) > 0:
		return fmt.Sprintf("it refers to %s, but a value given from outside the configuration cannot refer to anything: %s", traversalString(expr.Variables()[0]), hint)
	}
	return fmt.Sprintf("it is not a plain value (%s): %s", strings.ToLower(diags[0].Summary), hint)
}

// required is cty's wording of a missing type: "a number is required".
func required(ty cty.Type) string {
	switch {
	case ty == cty.Number:
		return "a number is required"
	case ty == cty.Bool:
		return "a bool is required"
	case ty == cty.String:
		return "a string is required"
	}
	return "a value of type " + typeexpr.TypeString(ty) + " is required"
}

// example is a value of type ty in HCL; i varies the scalars of a list.
func example(ty cty.Type, i int) string {
	switch {
	case ty == cty.Number:
		return fmt.Sprint(i + 1)
	case ty == cty.Bool:
		return fmt.Sprint(i%2 == 0)
	case ty.IsListType() || ty.IsSetType():
		return "[" + example(ty.ElementType(), 0) + ", " + example(ty.ElementType(), 1) + "]"
	case ty.IsTupleType():
		var parts []string
		for j, et := range ty.TupleElementTypes() {
			parts = append(parts, example(et, j))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ty.IsMapType():
		return "{ key = " + example(ty.ElementType(), 0) + " }"
	case ty.IsObjectType():
		names := make([]string, 0, len(ty.AttributeTypes()))
		for n := range ty.AttributeTypes() {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for j, n := range names {
			parts = append(parts, n+" = "+example(ty.AttributeType(n), j))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return fmt.Sprintf("%q", string(rune('a'+i%26)))
}

// convertProblem words a conversion error with where in the value it is.
func convertProblem(err error) string {
	pe, ok := err.(cty.PathError)
	if !ok || len(pe.Path) == 0 {
		return err.Error()
	}
	var parts []string
	for _, step := range pe.Path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			parts = append(parts, fmt.Sprintf("attribute %q", s.Name))
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				parts = append(parts, fmt.Sprintf("element %q", s.Key.AsString()))
			} else {
				parts = append(parts, "element "+s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return strings.Join(parts, ", ") + ": " + err.Error()
}

func traversalString(t hcl.Traversal) string {
	s := t.RootName()
	for _, step := range t[1:] {
		if a, ok := step.(hcl.TraverseAttr); ok {
			s += "." + a.Name
		}
	}
	return s
}

// shellQuote quotes s for a shell, when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%^") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
