package command

import (
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/internal/config"
)

// Sensitive is what a sensitive value is printed as.
const Sensitive = "(sensitive)"

// minSecretLen is the shortest value masked: masking a one- or two-character
// value would garble every line it occurs in, and such a value is no secret.
const minSecretLen = 3

// secretSet holds the values the output masks. A nil set masks nothing.
type secretSet struct {
	mu     sync.RWMutex
	values []string // longest first
}

func (s *secretSet) add(values ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) < minSecretLen {
			continue
		}
		forms := []string{v}
		// Inside JSON output the value appears escaped.
		if data, err := json.Marshal(v); err == nil {
			if esc := string(data[1 : len(data)-1]); esc != v {
				forms = append(forms, esc)
			}
		}
		for _, f := range forms {
			dup := false
			for _, have := range s.values {
				dup = dup || have == f
			}
			if !dup {
				s.values = append(s.values, f)
			}
		}
	}
	sort.Slice(s.values, func(i, j int) bool { return len(s.values[i]) > len(s.values[j]) })
}

func (s *secretSet) mask(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.values {
		text = strings.ReplaceAll(text, v, Sensitive)
	}
	return text
}

func (s *secretSet) empty() bool {
	if s == nil {
		return true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.values) == 0
}

// redactor masks secrets in everything written through it. Commands write
// whole lines or messages per call, so a value is never split across writes.
type redactor struct {
	w       io.Writer
	secrets *secretSet
}

func (r *redactor) Write(p []byte) (int, error) {
	if r.secrets.empty() {
		return r.w.Write(p)
	}
	if _, err := io.WriteString(r.w, r.secrets.mask(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// sensitiveValues finds every value given to a sensitive variable: its
// default, its environment variable, -var options, and the variables files.
// All candidates are masked, not only the one that won, so a value is hidden
// even in a message about why it was refused.
func sensitiveValues(cfg *config.Config, vars []config.VarArg, environ []string) []string {
	if cfg == nil {
		return nil
	}
	sensitive := map[string]bool{}
	for name, v := range cfg.Variables {
		if v.Sensitive {
			sensitive[name] = true
		}
	}
	if len(sensitive) == 0 {
		return nil
	}
	var out []string
	addValue := func(v cty.Value) {
		out = append(out, ctyStrings(v)...)
	}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, config.EnvPrefix) && sensitive[strings.TrimPrefix(k, config.EnvPrefix)] {
			out = append(out, v)
		}
	}
	for _, a := range vars {
		if a.File {
			continue // parsed into cfg.Files, below
		}
		if name, v, ok := strings.Cut(a.Value, "="); ok && sensitive[strings.TrimSpace(name)] {
			out = append(out, v)
		}
	}
	for _, f := range cfg.Files {
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		// Variables files are bodies of attributes, one per variable.
		for name, a := range body.Attributes {
			if sensitive[name] {
				if v, diags := a.Expr.Value(nil); !diags.HasErrors() {
					addValue(v)
				}
			}
		}
		for _, b := range body.Blocks {
			if b.Type != "variable" || len(b.Labels) != 1 || !sensitive[b.Labels[0]] {
				continue
			}
			if a, ok := b.Body.Attributes["default"]; ok {
				if v, diags := a.Expr.Value(&hcl.EvalContext{}); !diags.HasErrors() {
					addValue(v)
				}
			}
		}
	}
	return out
}

// ctyStrings lists the strings in v, however deeply nested.
func ctyStrings(v cty.Value) []string {
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch {
	case v.Type() == cty.String:
		return []string{v.AsString()}
	case v.Type().IsPrimitiveType():
		return nil
	case v.CanIterateElements():
		var out []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, ctyStrings(e)...)
		}
		return out
	}
	return nil
}
