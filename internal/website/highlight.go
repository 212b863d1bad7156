package website

import (
	"html"
	"strings"
)

// A small highlighter for the languages the docs show: HCL, shell, JSON and
// YAML. It only has to colour examples written by us, so it is a single-pass
// scanner rather than a grammar; anything it does not know stays plain text.
// Token classes (styled in assets/style.css): k keyword or block type,
// a attribute or key, s string, n number or constant, c comment, f command or
// function, o flag, v variable or interpolation.

// Highlight returns code as HTML, escaped, with <span class="t-X"> tokens.
func Highlight(lang, code string) string {
	switch lang {
	case "hcl", "terraform":
		return highlightHCL(code)
	case "shell", "sh", "bash", "console":
		return highlightShell(code)
	case "json":
		return highlightJSON(code)
	case "yaml", "yml":
		return highlightYAML(code)
	}
	return html.EscapeString(code)
}

type hl struct{ b strings.Builder }

func (h *hl) plain(s string) { h.b.WriteString(html.EscapeString(s)) }

func (h *hl) tok(class, s string) {
	if s == "" {
		return
	}
	h.b.WriteString(`<span class="t-`)
	h.b.WriteString(class)
	h.b.WriteString(`">`)
	h.b.WriteString(html.EscapeString(s))
	h.b.WriteString(`</span>`)
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '-' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanString returns the end of the double-quoted string starting at i.
func scanString(s string, i int, quote byte) int {
	j := i + 1
	for j < len(s) && s[j] != quote && s[j] != '\n' {
		if s[j] == '\\' && quote == '"' {
			j++
		}
		j++
	}
	if j < len(s) && s[j] == quote {
		j++
	}
	if j > len(s) {
		j = len(s)
	}
	return j
}

// emitInterpolated writes a string token, with ${…} parts as variables.
func (h *hl) emitInterpolated(s string) {
	for {
		k := strings.Index(s, "${")
		if k < 0 {
			h.tok("s", s)
			return
		}
		end := strings.IndexByte(s[k:], '}')
		if end < 0 {
			h.tok("s", s)
			return
		}
		h.tok("s", s[:k])
		h.tok("v", s[k:k+end+1])
		s = s[k+end+1:]
	}
}

func highlightHCL(s string) string {
	var h hl
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			h.plain("\n")
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			h.plain(s[i:j])
			i = j
			continue
		case c == '#' || c == '/' && i+1 < len(s) && s[i+1] == '/':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			h.tok("c", s[i:i+j])
			i += j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			end := len(s)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			h.tok("c", s[i:end])
			i = end
		case c == '"':
			j := scanString(s, i, '"')
			h.emitInterpolated(s[i:j])
			i = j
		case isDigit(c):
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == '_') {
				j++
			}
			h.tok("n", s[i:j])
			i = j
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			word := s[i:j]
			rest := strings.TrimLeft(s[j:], " \t")
			switch {
			case word == "true" || word == "false" || word == "null":
				h.tok("n", word)
			case lineStart && (strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==")):
				h.tok("a", word)
			case lineStart && (strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, `"`)):
				h.tok("k", word)
			case strings.HasPrefix(rest, "("):
				h.tok("f", word)
			case word == "var" || word == "local" || word == "source":
				h.tok("v", word)
			default:
				h.plain(word)
			}
			i = j
		default:
			h.plain(string(c))
			i++
		}
		lineStart = false
	}
	return h.b.String()
}

func highlightShell(s string) string {
	var h hl
	cmdPos := true // the next word is a command
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			h.plain("\n")
			// A line continued with a backslash goes on with arguments.
			cmdPos = !strings.HasSuffix(strings.TrimRight(s[:i], " "), "\\")
			i++
		case c == ' ' || c == '\t':
			h.plain(string(c))
			i++
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\n'):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			h.tok("c", s[i:i+j])
			i += j
		case c == '"' || c == '\'':
			j := scanString(s, i, c)
			if c == '"' {
				h.emitInterpolated(s[i:j])
			} else {
				h.tok("s", s[i:j])
			}
			i = j
			cmdPos = false
		case c == '$' && i+1 < len(s) && (s[i+1] == '{' || isIdentStart(s[i+1])):
			j := i + 1
			if s[j] == '{' {
				for j < len(s) && s[j] != '}' {
					j++
				}
				j++
			} else {
				for j < len(s) && (isIdentStart(s[j]) || isDigit(s[j])) {
					j++
				}
			}
			if j > len(s) {
				j = len(s)
			}
			h.tok("v", s[i:j])
			i = j
		case c == '|' || c == ';' || c == '&':
			j := i
			for j < len(s) && (s[j] == '|' || s[j] == ';' || s[j] == '&') {
				j++
			}
			h.plain(s[i:j])
			i = j
			cmdPos = true
		case c == '$' && cmdPos && i+1 < len(s) && s[i+1] == ' ':
			h.tok("c", "$")
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n|;&\"'", rune(s[j])) {
				if s[j] == '$' && j > i {
					break
				}
				j++
			}
			if j == i {
				j = i + 1
			}
			word := s[i:j]
			switch {
			case cmdPos && strings.Contains(word, "=") && !strings.HasPrefix(word, "-"):
				k := strings.IndexByte(word, '=')
				h.tok("v", word[:k])
				h.plain(word[k:])
				// An assignment before a command: the command is still to come.
			case cmdPos:
				h.tok("f", word)
				cmdPos = false
			case strings.HasPrefix(word, "-"):
				if k := strings.IndexByte(word, '='); k > 0 {
					h.tok("o", word[:k])
					h.plain(word[k:])
				} else {
					h.tok("o", word)
				}
			default:
				h.plain(word)
			}
			i = j
		}
	}
	return h.b.String()
}

func highlightJSON(s string) string {
	var h hl
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			j := scanString(s, i, '"')
			rest := strings.TrimLeft(s[j:], " \t")
			if strings.HasPrefix(rest, ":") {
				h.tok("a", s[i:j])
			} else {
				h.tok("s", s[i:j])
			}
			i = j
		case isDigit(c) || c == '-' && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || strings.IndexByte(".eE+-", s[j]) >= 0) {
				j++
			}
			h.tok("n", s[i:j])
			i = j
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			h.tok("n", s[i:j])
			i = j
		default:
			h.plain(string(c))
			i++
		}
	}
	return h.b.String()
}

func highlightYAML(s string) string {
	var h hl
	for _, line := range strings.SplitAfter(s, "\n") {
		body := strings.TrimRight(line, "\n")
		nl := line[len(body):]
		trimmed := strings.TrimLeft(body, " ")
		indent := body[:len(body)-len(trimmed)]
		h.plain(indent)
		if strings.HasPrefix(trimmed, "#") {
			h.tok("c", trimmed)
			h.plain(nl)
			continue
		}
		if strings.HasPrefix(trimmed, "- ") {
			h.plain("- ")
			trimmed = trimmed[2:]
		}
		if k := strings.Index(trimmed, ":"); k > 0 && !strings.ContainsAny(trimmed[:k], " \"'{") {
			h.tok("a", trimmed[:k])
			h.plain(":")
			rest := trimmed[k+1:]
			if strings.HasPrefix(strings.TrimSpace(rest), "#") {
				h.tok("c", rest)
			} else {
				h.tok("s", rest)
			}
		} else {
			h.tok("s", trimmed)
		}
		h.plain(nl)
	}
	return h.b.String()
}
