package command

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

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

// redactor masks secrets, and escapes control characters, in everything
// written through it: it is the one boundary all output crosses, and values
// of variables, records, file names and manifests reach messages in many
// ways. Commands write whole lines or messages per call, so a value is never
// split across writes.
type redactor struct {
	w       io.Writer
	secrets *secretSet
	// terminal lets streamctl's own colour and line-clearing sequences
	// through (they are only written to a terminal); anything else that a
	// terminal would act on is shown escaped.
	terminal bool
}

func (r *redactor) Write(p []byte) (int, error) {
	if r.secrets.empty() && clean(p) {
		return r.w.Write(p)
	}
	text := string(p)
	if !r.secrets.empty() {
		text = r.secrets.mask(text)
	}
	if _, err := io.WriteString(r.w, escapeControls(text, r.terminal)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ownSequences are the escape sequences streamctl itself writes to a
// terminal: the colours of plans, status and HCL's diagnostics, and the
// progress line's "return and clear".
var ownSequences = []string{"\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[1;4m", "\r\x1b[K"}

// clean reports whether p holds nothing escapeControls would change.
func clean(p []byte) bool {
	for _, b := range p {
		if b < 0x20 && b != '\n' && b != '\t' || b >= 0x7f {
			return false
		}
	}
	return true
}

// escapeControls shows the control characters of text (but newlines and
// tabs, which format the output) as Go escapes, so that a value can neither
// move the cursor, retitle the window, clear the screen nor hide text: C0
// controls and DEL as \x1b, \r, \a…; C1 controls, which some terminals
// obey as well, as \u009b; and bidirectional controls, which reorder what
// follows them, as \u202e. With terminal, streamctl's own sequences pass.
func escapeControls(text string, terminal bool) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		if terminal && (c == 0x1b || c == '\r') {
			if seq := ownSequence(text[i:]); seq != "" {
				b.WriteString(seq)
				i += len(seq)
				continue
			}
		}
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				b.WriteString(escapeByte(c))
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r >= 0x80 && r <= 0x9f, isBidiControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		case r == utf8.RuneError && size == 1 && c <= 0x9f:
			// A lone byte a terminal in an 8-bit mode reads as C1.
			b.WriteString(escapeByte(c))
		default:
			b.WriteString(text[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isBidiControl reports the characters that change the order in which a
// terminal shows the text after them: embeddings, overrides, isolates and
// marks (Unicode's Bidi_Control property).
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

func ownSequence(s string) string {
	for _, seq := range ownSequences {
		if strings.HasPrefix(s, seq) {
			return seq
		}
	}
	return ""
}

func escapeByte(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	case '\v':
		return `\v`
	}
	return fmt.Sprintf(`\x%02x`, c)
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
