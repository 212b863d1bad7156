package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// variableValidation is one `validation { condition, error_message }` block
// of a variable, checked as Terraform checks it: once the variable's final
// value is known, against that value alone.
type variableValidation struct {
	condition    hcl.Expression
	errorMessage hcl.Expression
	rng          hcl.Range
}

var validationSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true},
	{Name: "error_message", Required: true},
}}

// decodeValidation reads a validation block of variable name. The condition
// and the message may refer only to the variable itself, as in Terraform:
// any other reference would make a value's validity depend on the rest of
// the configuration.
func (l *loader) decodeValidation(name string, b *hcl.Block) *variableValidation {
	content, diags := b.Body.Content(validationSchema)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return nil
	}
	v := &variableValidation{
		condition:    content.Attributes["condition"].Expr,
		errorMessage: content.Attributes["error_message"].Expr,
		rng:          b.DefRange,
	}
	ok := true
	for _, attr := range []*hcl.Attribute{content.Attributes["condition"], content.Attributes["error_message"]} {
		for _, t := range attr.Expr.Variables() {
			if refersTo(t, name) {
				continue
			}
			l.errorf(t.SourceRange().Ptr(), "Invalid reference in variable validation", "The %s of a validation of variable %q may refer only to var.%s, not to %s.", attr.Name, name, name, traversalString(t))
			ok = false
		}
	}
	if attr := content.Attributes["condition"]; ok && len(attr.Expr.Variables()) == 0 {
		l.errorf(attr.Expr.Range().Ptr(), "Invalid variable validation condition", "The condition of a validation of variable %q must refer to var.%s: a condition without it checks nothing about the value.", name, name)
		ok = false
	}
	if !ok {
		return nil
	}
	return v
}

// refersTo reports whether t is var.name (or something inside it).
func refersTo(t hcl.Traversal, name string) bool {
	if t.RootName() != "var" || len(t) < 2 {
		return false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	return ok && a.Name == name
}

// checkValidations evaluates the validations of variable name against its
// final value v, with only var.name and the functions in scope. An unknown
// value (a sensitive variable validate has no value for) is not checked.
func (l *loader) checkValidations(name string, d *variableDecl, v cty.Value, origin string) {
	if len(d.validations) == 0 || !v.IsWhollyKnown() {
		return
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{name: v})},
		Functions: functions(),
	}
	for _, val := range d.validations {
		result, diags := val.condition.Value(ctx)
		if diags.HasErrors() {
			l.diags = append(l.diags, diags...)
			continue
		}
		result, _ = result.Unmark()
		if result.IsNull() || !result.IsKnown() || result.Type() != cty.Bool {
			l.errorf(val.condition.Range().Ptr(), "Invalid variable validation result", "The condition of a validation of variable %q must be true or false.", name)
			continue
		}
		if result.True() {
			continue
		}
		msg := "The value of var." + name + " is invalid."
		if m, diags := val.errorMessage.Value(ctx); !diags.HasErrors() {
			if m, _ = m.Unmark(); m.Type() == cty.String && m.IsKnown() && !m.IsNull() {
				msg = m.AsString()
			}
		} else {
			l.diags = append(l.diags, diags...)
		}
		detail := fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", msg, val.rng)
		if origin != "" {
			detail += " " + origin + "."
		}
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   detail,
			Subject:  val.condition.Range().Ptr(),
		})
	}
}

// checkRequiredVersion compares `streamctl { required_version = "…" }` with
// the binary's version. A build whose version is unknown (a "dev" build)
// passes with a warning: it cannot say which release it is.
func (l *loader) checkRequiredVersion(a *hcl.Attribute, binary string) {
	v, diags := a.Expr.Value(nil)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return
	}
	if v.Type() != cty.String || v.IsNull() {
		l.errorf(a.Expr.Range().Ptr(), "Invalid required_version", "required_version is a string of version constraints, e.g. \">= 0.9, < 2.0\".")
		return
	}
	constraints, err := parseConstraints(v.AsString())
	if err != nil {
		l.errorf(a.Expr.Range().Ptr(), "Invalid required_version", "%v. Write constraints such as \">= 0.9\", \"~> 1.2\" or \">= 0.9, < 2.0\".", err)
		return
	}
	if binary == "" {
		return // the caller does not check versions (a library use)
	}
	have, ok := parseVersion(binary)
	if !ok || have.pre == "dev" {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraint not checked",
			Detail:   fmt.Sprintf("This configuration requires streamctl %s, and this build's version %q is unknown (a development build): the constraint was not checked.", v.AsString(), binary),
			Subject:  a.Expr.Range().Ptr(),
		})
		return
	}
	for _, c := range constraints {
		if !c.allows(have) {
			l.errorf(a.Expr.Range().Ptr(), "Unsupported streamctl version", "This configuration requires streamctl %s, and this is streamctl v%s. Use a streamctl release that satisfies the constraint, or change required_version.", v.AsString(), binary)
			return
		}
	}
}

// version is a release number: major.minor.patch and a pre-release tag.
type version struct {
	num [3]int
	pre string
}

// parseVersion reads "1.2.3", "v1.2", "0.1.0-dev"; missing parts are 0.
func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	var v version
	s, v.pre, _ = strings.Cut(s, "-")
	s, _, _ = strings.Cut(s, "+")
	parts := strings.Split(s, ".")
	if len(parts) == 0 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v.num[i] = n
	}
	return v, true
}

// compare orders versions as releases: a pre-release comes before its release.
func (v version) compare(w version) int {
	for i := range v.num {
		if v.num[i] != w.num[i] {
			if v.num[i] < w.num[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case v.pre == w.pre:
		return 0
	case v.pre == "":
		return 1
	case w.pre == "":
		return -1
	case v.pre < w.pre:
		return -1
	default:
		return 1
	}
}

// constraint is one "OP VERSION" of required_version.
type constraint struct {
	op    string
	v     version
	parts int // how many parts were written, for ~>
}

func (c constraint) allows(v version) bool {
	d := v.compare(c.v)
	switch c.op {
	case "=", "":
		return d == 0
	case "!=":
		return d != 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case "~>":
		// ~> 1.2 allows 1.2 up to, not including, 2.0; ~> 1.2.3 up to 1.3.0.
		if d < 0 {
			return false
		}
		upper := c.v
		upper.pre = ""
		i := max(c.parts-2, 0)
		upper.num[i]++
		for j := i + 1; j < 3; j++ {
			upper.num[j] = 0
		}
		return v.compare(upper) < 0
	}
	return false
}

// parseConstraints reads Terraform's syntax: comma-separated "OP VERSION".
func parseConstraints(s string) ([]constraint, error) {
	var out []constraint
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		var c constraint
		for _, op := range []string{"~>", ">=", "<=", "!=", ">", "<", "="} {
			if rest, ok := strings.CutPrefix(part, op); ok {
				c.op, part = op, strings.TrimSpace(rest)
				break
			}
		}
		v, ok := parseVersion(part)
		if !ok || part == "" {
			return nil, fmt.Errorf("%q is not a version constraint", strings.TrimSpace(c.op+" "+part))
		}
		c.v, c.parts = v, len(strings.Split(strings.SplitN(strings.SplitN(part, "-", 2)[0], "+", 2)[0], "."))
		out = append(out, c)
	}
	return out, nil
}

// knownBody hides the attributes whose value is not known: validate gives
// sensitive variables without a value an unknown value, as Terraform does,
// and what is made of them is not checked (nor required) until plan.
type knownBody struct {
	hcl.Body
	ctx *hcl.EvalContext
}

func (b knownBody) filter(c *hcl.BodyContent) *hcl.BodyContent {
	if c == nil {
		return nil
	}
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: c.MissingItemRange}
	for name, a := range c.Attributes {
		if v, diags := a.Expr.Value(b.ctx); !diags.HasErrors() && !v.IsWhollyKnown() {
			continue
		}
		out.Attributes[name] = a
	}
	for _, blk := range c.Blocks {
		cp := *blk
		cp.Body = knownBody{Body: blk.Body, ctx: b.ctx}
		out.Blocks = append(out.Blocks, &cp)
	}
	return out
}

func (b knownBody) Content(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	c, diags := b.Body.Content(s)
	return b.filter(c), diags
}

func (b knownBody) PartialContent(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	c, rest, diags := b.Body.PartialContent(s)
	if rest != nil {
		rest = knownBody{Body: rest, ctx: b.ctx}
	}
	return b.filter(c), rest, diags
}

func (b knownBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.Body.JustAttributes()
	out := hcl.Attributes{}
	for name, a := range attrs {
		if v, d := a.Expr.Value(b.ctx); !d.HasErrors() && !v.IsWhollyKnown() {
			continue
		}
		out[name] = a
	}
	return out, diags
}
