package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Validation runs offline in CI on proposed configurations, so a hostile one
// must end in a diagnostic, never in a crash: a Go stack overflow is fatal
// (exit 2, read as "changes pending"), and running out of memory is too. The
// HCL parser and evaluator recurse once per level of nesting, so nesting is
// bounded before parsing; values grow only through functions, templates and
// for expressions, so those are charged to a budget while evaluating.

// maxNesting bounds how deeply brackets, templates, template directives and
// chained operators nest in one file or value. Real configurations stay
// below 20; the parser's stack holds some 100,000.
const maxNesting = 256

// checkNesting reports a source whose nesting exceeds maxNesting, before it
// reaches the parser. what names the source for a diagnostic without a file
// (a -var value, an environment variable).
func checkNesting(src []byte, filename, what string) *hcl.Diagnostic {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	rng, ok := tooDeep(tokens)
	if ok {
		return nil
	}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Expression nested too deeply",
		Detail: fmt.Sprintf("%s nests brackets, templates or operators more than %d levels deep; streamctl refuses it before parsing, as no real configuration needs that much. Flatten the expression, or split it into locals.",
			what, maxNesting),
	}
	if filename != "" {
		d.Subject = &rng
	}
	return d
}

// tooDeep walks the tokens, returning ok when they stay within maxNesting,
// and otherwise the range of the token that went deeper. Each open bracket,
// quote, heredoc, interpolation and if/for directive is a level; each
// operator, '.' and '[' adds one to its level, because chains of them
// (a+a+…, !!…, c ? x : c ? x : …) nest the syntax tree as deeply as
// brackets do. A comma, or a newline between attributes, ends an expression.
func tooDeep(tokens hclsyntax.Tokens) (hcl.Range, bool) {
	type level struct {
		ops      int
		newlines bool // a newline separates items: blocks and objects
	}
	stack := []level{{newlines: true}}
	depth := 0 // levels and operators along the stack
	push := func(newlines bool) {
		stack = append(stack, level{newlines: newlines})
		depth++
	}
	pop := func() {
		if len(stack) > 1 {
			depth -= 1 + stack[len(stack)-1].ops
			stack = stack[:len(stack)-1]
		}
	}
	directives := 0
	for i, tok := range tokens {
		top := &stack[len(stack)-1]
		switch tok.Type {
		case hclsyntax.TokenOBrace:
			push(true)
		case hclsyntax.TokenOBrack:
			top.ops++
			depth++
			push(false)
		case hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			push(false)
		case hclsyntax.TokenTemplateControl:
			push(false)
			if i+1 < len(tokens) && tokens[i+1].Type == hclsyntax.TokenIdent {
				switch string(tokens[i+1].Bytes) {
				case "if", "for":
					directives++
				case "endif", "endfor":
					directives--
				}
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			pop()
		case hclsyntax.TokenComma:
			depth -= top.ops
			top.ops = 0
		case hclsyntax.TokenNewline:
			if top.newlines {
				depth -= top.ops
				top.ops = 0
			}
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
			hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang,
			hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
			hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq,
			hclsyntax.TokenQuestion, hclsyntax.TokenDot:
			top.ops++
			depth++
		}
		if depth+max(directives, 0) > maxNesting {
			return tok.Range, false
		}
	}
	return hcl.Range{}, true
}

// checkInputNesting checks the variable values given from outside that the
// loader parses as HCL: -var and environment values, the variables files.
func (l *loader) checkInputNesting(in Inputs) {
	for _, a := range in.Args {
		if a.File {
			continue
		}
		name, val, _ := strings.Cut(a.Value, "=")
		if d := checkNesting([]byte(val), "", fmt.Sprintf("The value of -var %s=…", strings.TrimSpace(name))); d != nil {
			l.diags = append(l.diags, d)
		}
	}
	for _, kv := range in.Environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, EnvPrefix) {
			if d := checkNesting([]byte(v), "", "The value of the environment variable "+k); d != nil {
				l.diags = append(l.diags, d)
			}
		}
	}
	files := []string{filepath.Join(l.cfg.Dir, AutoVarsFile)}
	more, _ := filepath.Glob(filepath.Join(l.cfg.Dir, "*.auto.vars"))
	sort.Strings(more)
	files = append(files, more...)
	for _, a := range in.Args {
		if a.File {
			files = append(files, a.Value)
		}
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue // reported when the file is loaded
		}
		if d := checkNesting(src, l.relName(f), "The variables file "+l.relName(f)); d != nil {
			l.diags = append(l.diags, d)
		}
	}
}

// Bounds of what evaluating a configuration produces. A configuration names
// files and settings; it does not build data, so these are far above any
// real one and far below what a CI runner holds.
const (
	// maxValueBytes bounds one value: a string, or a collection counted as
	// its serialized size.
	maxValueBytes = 16 << 20
	// maxEvalBytes bounds everything the functions, templates and for
	// expressions of one configuration produce together.
	maxEvalBytes = 256 << 20
)

// budget counts what evaluation produced so far.
type budget struct {
	used int64
}

// tooLargeError is an evaluation stopped before it produced too much.
type tooLargeError struct {
	total bool  // the budget of the whole configuration, not one value
	size  int64 // what it would have reached, at least
}

func (e *tooLargeError) Error() string {
	msg := fmt.Sprintf("this value would exceed %s, the most one value of a configuration may hold", mib(maxValueBytes))
	if e.total {
		msg = fmt.Sprintf("the configuration's expressions would produce more than %s together, the most a configuration may build", mib(maxEvalBytes))
	}
	if !e.total && e.size >= 2*maxValueBytes {
		msg += fmt.Sprintf(" (it would reach %s or more)", mib(e.size))
	}
	return msg
}

func mib(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// check refuses to produce a value of size bytes.
func (b *budget) check(size int64) error {
	if size > maxValueBytes {
		return &tooLargeError{size: size}
	}
	if b.used+size > maxEvalBytes {
		return &tooLargeError{total: true, size: b.used + size}
	}
	return nil
}

// charge records a value of size bytes, refusing it past the bounds.
func (b *budget) charge(size int64) error {
	if err := b.check(size); err != nil {
		b.used = maxEvalBytes + 1 // stop everything that follows too
		return err
	}
	b.used += size
	return nil
}

// valueSize is v's size as serialized (strings and elements each with some
// overhead), counting shared parts as often as they occur, since that is
// what joining or encoding it allocates. It stops counting past limit.
func valueSize(v cty.Value, limit int64) int64 {
	var n int64
	var walk func(v cty.Value)
	walk = func(v cty.Value) {
		if n > limit {
			return
		}
		v, _ = v.Unmark()
		switch {
		case !v.IsKnown() || v.IsNull():
			n += 8
		case v.Type() == cty.String:
			n += 16 + int64(len(v.AsString()))
		case v.Type() == cty.Number:
			n += 32
		case v.Type().IsPrimitiveType() || v.Type().IsCapsuleType():
			n += 8
		case v.CanIterateElements():
			for it := v.ElementIterator(); it.Next() && n <= limit; {
				k, e := it.Element()
				n += 32
				if v.Type().IsMapType() || v.Type().IsObjectType() {
					walk(k)
				}
				walk(e)
			}
		default:
			n += 8
		}
	}
	walk(v)
	return n
}

// Names of the functions the loader calls on its own, in expressions it
// rewrites: namespaced, so that no configuration's function collides.
const (
	chargeFunc  = "streamctl::charge"
	iterateFunc = "streamctl::iterate"
)

// guard makes every function of ctx check its result, and some their
// arguments first, against the budget, and adds the functions charging the
// parts of templates and the collections of for expressions.
func (l *loader) guard(funcs map[string]function.Function) {
	for name, f := range funcs {
		if name == "try" || name == "can" {
			// They return a value their arguments produced, and evaluate
			// those lazily: wrapping would evaluate them twice per level.
			continue
		}
		funcs[name] = l.guarded(name, f)
	}
	passThrough := func(size func(cty.Value) int64) function.Function {
		return function.New(&function.Spec{
			Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
			Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				if err := l.budget.charge(size(args[0])); err != nil {
					return cty.NilVal, err
				}
				return args[0], nil
			},
		})
	}
	funcs[chargeFunc] = passThrough(func(v cty.Value) int64 { return valueSize(v, maxValueBytes) })
	funcs[iterateFunc] = passThrough(func(v cty.Value) int64 {
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
			return 0
		}
		// Each iteration makes a value and a scope of its own (some 256
		// bytes, mostly garbage at once): charged, so that nested loops stop
		// after a million iterations or so.
		return 256 * int64(v.LengthInt())
	})
}

// guarded wraps f: arguments that would make it produce too much are refused
// before it runs, and its result is charged to the budget.
func (l *loader) guarded(name string, f function.Function) function.Function {
	spec := &function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type:        f.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if est := estimate(name, args); est > 0 {
				if err := l.budget.check(est); err != nil {
					l.budget.used = maxEvalBytes + 1
					return cty.NilVal, err
				}
			}
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			if err := l.budget.charge(valueSize(v, maxValueBytes)); err != nil {
				return cty.NilVal, err
			}
			return v, nil
		},
	}
	return function.New(spec)
}

// estimate bounds from above what the function name allocates for args, for
// the functions whose output can be far larger than their arguments; 0 for
// the others, whose output is checked once made.
func estimate(name string, args []cty.Value) int64 {
	str := func(i int) string {
		if i >= len(args) {
			return ""
		}
		v, _ := args[i].Unmark()
		if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
			return ""
		}
		return v.AsString()
	}
	num := func(i int) float64 {
		if i >= len(args) {
			return 0
		}
		v, _ := args[i].Unmark()
		if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
			return 0
		}
		f, _ := v.AsBigFloat().Float64()
		return f
	}
	argsSize := func() int64 {
		var n int64
		for _, a := range args {
			n += valueSize(a, maxValueBytes)
		}
		return n
	}
	sat := func(f float64) int64 {
		if f != f || f > maxEvalBytes*4 {
			return maxEvalBytes * 4
		}
		if f < 0 {
			return 0
		}
		return int64(f)
	}
	switch name {
	case "format":
		return argsSize() + formatWidths(str(0))
	case "formatlist":
		n := int64(1)
		for _, a := range args[1:] {
			if v, _ := a.Unmark(); v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
				n = max(n, int64(v.LengthInt()))
			}
		}
		return argsSize() + sat(float64(n)*float64(int64(len(str(0)))+formatWidths(str(0))))
	case "indent":
		s := str(1)
		return int64(len(s)) + sat(num(0)*float64(strings.Count(s, "\n")+1))
	case "replace":
		s, old, repl := str(0), str(1), str(2)
		n := strings.Count(s, old) // len(s)+1 for ""
		return int64(len(s)) + sat(float64(n)*float64(len(repl)))
	case "regex_replace":
		s, repl := str(0), str(2)
		re, err := regexp.Compile(str(1))
		if err != nil {
			return 0
		}
		// Each match becomes repl, with each $ reference at most the match.
		refs := float64(strings.Count(repl, "$"))
		total := float64(len(s))
		for _, m := range re.FindAllStringIndex(s, -1) {
			total += float64(len(repl)) + refs*float64(m[1]-m[0])
		}
		return sat(total)
	case "regexall":
		s := str(1)
		re, err := regexp.Compile(str(0))
		if err != nil {
			return 0
		}
		return int64(len(s)) + sat(float64(len(re.FindAllStringIndex(s, -1)))*float64(48*(1+re.NumSubexp())))
	case "range":
		start, limit, step := 0.0, num(0), 1.0
		switch len(args) {
		case 2:
			start, limit = num(0), num(1)
		case 3:
			start, limit, step = num(0), num(1), num(2)
		}
		if step == 0 {
			return 0
		}
		return sat(48 * math.Abs((limit-start)/step))
	case "setproduct":
		n := 1.0
		for _, a := range args {
			if v, _ := a.Unmark(); v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
				n *= float64(v.LengthInt())
			}
		}
		return sat(n * float64(48*len(args)))
	case "split":
		sep, s := str(0), str(1)
		return int64(len(s)) + sat(48*float64(strings.Count(s, sep)+1))
	case "csvdecode":
		s := str(0)
		header, _, _ := strings.Cut(s, "\n")
		return int64(len(s)) + sat(48*float64(strings.Count(s, "\n")+1)*float64(strings.Count(header, ",")+1))
	case "jsondecode":
		s := str(0)
		if jsonTooDeep(s) {
			return maxEvalBytes * 4
		}
		return sat(24 * float64(len(s)))
	case "jsonencode":
		return sat(6 * float64(argsSize())) // \u00XX for each control character
	case "join", "concat", "flatten", "chunklist", "upper", "lower", "title", "formatdate", "merge", "zipmap", "distinct", "sort", "values", "keys", "setunion":
		return sat(3 * float64(argsSize())) // case changes can grow UTF-8
	}
	return 0
}

// formatWidths sums the widths and precisions of a format string's verbs: a
// verb pads or extends its value to them.
func formatWidths(f string) int64 {
	var total float64
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-+# 0", f[i]) >= 0 {
			i++
		}
		if i < len(f) && f[i] == '[' {
			for i < len(f) && f[i] != ']' {
				i++
			}
			i++
		}
		digits := func() float64 {
			n := 0.0
			for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				n = n*10 + float64(f[i]-'0')
			}
			return n
		}
		total += digits() // width
		if i < len(f) && f[i] == '.' {
			i++
			total += digits() // precision
		}
	}
	if total > maxEvalBytes*4 {
		return maxEvalBytes * 4
	}
	return int64(total)
}

// jsonTooDeep reports JSON nesting beyond maxNesting, which cty's decoder
// would recurse into.
func jsonTooDeep(s string) bool {
	depth, inString := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > maxNesting {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// guardExpressions rewrites the expressions of body so that evaluating them
// charges the budget where HCL itself builds values: each interpolated part
// of a template (before the parts are concatenated), the strings a
// template's for directive joins, the collection of each for expression
// (once per evaluation, so nested loops are charged for every inner run) and
// each value it makes, and the elements of tuple and object constructors
// (which, by referring to a local twice, double it without copying — until
// something unmarks, encodes or decodes it).
func guardExpressions(body *hclsyntax.Body) {
	wrap := func(fn string, e hclsyntax.Expression) hclsyntax.Expression {
		if _, literal := e.(*hclsyntax.LiteralValueExpr); literal {
			return e // the source holds it already
		}
		rng := e.Range()
		return &hclsyntax.FunctionCallExpr{Name: fn, Args: []hclsyntax.Expression{e}, NameRange: rng, OpenParenRange: rng, CloseParenRange: rng}
	}
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		switch e := n.(type) {
		case *hclsyntax.TemplateExpr:
			for i, p := range e.Parts {
				e.Parts[i] = wrap(chargeFunc, p)
			}
		case *hclsyntax.TemplateJoinExpr:
			e.Tuple = wrap(chargeFunc, e.Tuple)
		case *hclsyntax.ForExpr:
			e.CollExpr = wrap(iterateFunc, e.CollExpr)
			e.ValExpr = wrap(chargeFunc, e.ValExpr)
		case *hclsyntax.TupleConsExpr:
			for i, x := range e.Exprs {
				e.Exprs[i] = wrap(chargeFunc, x)
			}
		case *hclsyntax.ObjectConsExpr:
			for i := range e.Items {
				e.Items[i].ValueExpr = wrap(chargeFunc, e.Items[i].ValueExpr)
			}
		}
		return nil
	})
}

// checkLocals refuses locals whose value is too large: one built by sharing
// (a tuple of references to a tuple of references…) costs little memory but
// would blow up wherever it is encoded or decoded.
func (l *loader) checkLocals(blocks []*hcl.Block) bool {
	if l.budget.used > maxEvalBytes {
		return false // refused already, and said so
	}
	obj, _ := l.ctx.Variables["local"].Unmark()
	if !obj.IsKnown() || obj.IsNull() || !obj.Type().IsObjectType() {
		return true
	}
	ok := true
	for _, b := range blocks {
		attrs, _ := b.Body.JustAttributes()
		for name, a := range attrs {
			if !obj.Type().HasAttribute(name) {
				continue
			}
			if size := valueSize(obj.GetAttr(name), maxValueBytes); size > maxValueBytes {
				ok = false
				l.diags = append(l.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Value too large",
					Detail:   fmt.Sprintf("The local value %q is larger than the %s any one value of a configuration may hold. %s", name, mib(maxValueBytes), tooLargeAdvice),
					Subject:  a.NameRange.Ptr(),
				})
			}
		}
	}
	return ok
}

const tooLargeAdvice = "A configuration names files and settings; it does not build data. Look for a local or function that grows a string or a list over and over (a value doubled, a replace, format or for expression that multiplies it)."

// tidyTooLarge turns the first diagnostic of a refused evaluation into a
// plain message, without the values involved (HCL would print them whole),
// and drops the others: once one is refused, the budget is spent and every
// later call fails the same way.
func tidyTooLarge(diags hcl.Diagnostics) hcl.Diagnostics {
	out := diags[:0]
	spent := false
	for _, d := range diags {
		extra, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra)
		var tl *tooLargeError
		if !ok || !errors.As(extra.FunctionCallError(), &tl) {
			out = append(out, d)
			continue
		}
		if spent {
			continue
		}
		spent = true
		detail := fmt.Sprintf("Evaluating this expression stopped, as %v. %s", tl, tooLargeAdvice)
		if name := extra.CalledFunctionName(); name != chargeFunc && name != iterateFunc {
			detail = fmt.Sprintf("The call to %s stopped before it ran, as %v. %s", name, tl, tooLargeAdvice)
		}
		out = append(out, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value too large", Detail: detail, Subject: d.Subject, Context: d.Context})
	}
	return out
}

// CheckNesting is checkNesting for code outside the loader that parses HCL
// itself (fmt): a source nested deeper than maxNesting would overflow the
// parser's stack, a crash whose exit code would read as a result.
func CheckNesting(src []byte, filename string) *hcl.Diagnostic {
	return checkNesting(src, filename, filename)
}
