// Package website builds streamctl's documentation site: Markdown pages under
// website/content, rendered with goldmark into static HTML with navigation,
// highlighted code, an SVG diagram and client-side search.
//
// The reference pages are generated from the code, so that they cannot drift:
// the configuration reference from config.Schema (with the Go doc comments of
// the decoded structs), the CLI reference from each command's own Help, the
// exit codes from the Exit* constants of internal/command, and the file formats
// from the JSON-tagged structs of state, planner and engine. A page asks for
// generated text with a line `<!-- generated: NAME ARGS -->`.
package website

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Sections are the navigation's groups, in order.
var Sections = []string{"Start", "Concepts", "Guides", "Reference"}

// Page is one page of the site.
type Page struct {
	// Slug names the page: "concepts" is content/concepts.md and concepts.html.
	Slug    string
	Title   string
	Section string
	Weight  int
	// Summary is the page's description, for the search index and meta tags.
	Summary string
	// Markdown is the page's source with the generated parts expanded.
	Markdown string

	HTML     template.HTML
	Headings []Heading
	// IDs are every element id of the page: headings and raw HTML anchors.
	IDs map[string]bool
	// Links are the page's link destinations, as written.
	Links []string
	// Sections are the page's text per heading, for search.
	Sections []SearchSection
	// Code are the page's code blocks and inline code, for the tests.
	Code []Code

	doc ast.Node
}

// Heading is a heading of a page.
type Heading struct {
	Level int
	ID    string
	Text  string
}

// Code is a fenced code block (Lang set, or "text") or an inline code span
// (Inline true) of a page.
type Code struct {
	Lang   string
	Info   string
	Text   string
	Inline bool
}

// URL is the page's file name in the output.
func (p *Page) URL() string { return p.Slug + ".html" }

// Site is the whole site.
type Site struct {
	Root  string
	Pages []*Page
}

// Page returns the page with slug, or nil.
func (s *Site) Page(slug string) *Page {
	for _, p := range s.Pages {
		if p.Slug == slug {
			return p
		}
	}
	return nil
}

// Load reads the pages under root/website/content, expands the generated parts
// and renders them. Broken internal links are errors.
func Load(root string) (*Site, error) {
	s := &Site{Root: root}
	dir := filepath.Join(root, "website", "content")
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no pages in %s", dir)
	}
	gen := &generator{root: root}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := parsePage(strings.TrimSuffix(filepath.Base(name), ".md"), string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if p.Markdown, err = gen.expand(p.Markdown); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s.Pages = append(s.Pages, p)
	}
	order := map[string]int{}
	for i, sec := range Sections {
		order[sec] = i
	}
	for _, p := range s.Pages {
		if _, ok := order[p.Section]; !ok {
			return nil, fmt.Errorf("page %s: unknown section %q (one of %s)", p.Slug, p.Section, strings.Join(Sections, ", "))
		}
	}
	sort.SliceStable(s.Pages, func(i, j int) bool {
		a, b := s.Pages[i], s.Pages[j]
		if order[a.Section] != order[b.Section] {
			return order[a.Section] < order[b.Section]
		}
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return a.Slug < b.Slug
	})
	for _, p := range s.Pages {
		if err := renderPage(p); err != nil {
			return nil, fmt.Errorf("page %s: %w", p.Slug, err)
		}
	}
	if err := s.checkLinks(); err != nil {
		return nil, err
	}
	return s, nil
}

// parsePage splits the front matter (title, section, weight, summary) from
// the Markdown.
func parsePage(slug, src string) (*Page, error) {
	p := &Page{Slug: slug}
	rest, ok := strings.CutPrefix(src, "---\n")
	if !ok {
		return nil, fmt.Errorf("no front matter: start with ---, title:, section:, weight:, ---")
	}
	front, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, fmt.Errorf("front matter not closed with ---")
	}
	for _, line := range strings.Split(front, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "title":
			p.Title = v
		case "section":
			p.Section = v
		case "summary":
			p.Summary = v
		case "weight":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("weight %q is not a number", v)
			}
			p.Weight = n
		default:
			return nil, fmt.Errorf("unknown front matter key %q", k)
		}
	}
	if p.Title == "" || p.Section == "" {
		return nil, fmt.Errorf("front matter needs a title and a section")
	}
	p.Markdown = body
	return p, nil
}

// checkLinks refuses links to pages or anchors that do not exist.
func (s *Site) checkLinks() error {
	var problems []string
	for _, p := range s.Pages {
		for _, l := range p.Links {
			if isExternal(l) {
				continue
			}
			target, frag, _ := strings.Cut(l, "#")
			tp := p
			if target != "" {
				slug, ok := strings.CutSuffix(target, ".html")
				if !ok {
					slug, ok = strings.CutSuffix(target, ".md")
				}
				if !ok || strings.Contains(slug, "/") {
					if _, err := os.Stat(filepath.Join(s.Root, "website", filepath.FromSlash(target))); err == nil && strings.HasPrefix(target, "assets/") {
						continue
					}
					problems = append(problems, fmt.Sprintf("%s: link to %q: not a page of the site", p.Slug, l))
					continue
				}
				if tp = s.Page(slug); tp == nil {
					problems = append(problems, fmt.Sprintf("%s: link to %q: no page %s", p.Slug, l, slug))
					continue
				}
			}
			if frag != "" && !tp.IDs[frag] {
				problems = append(problems, fmt.Sprintf("%s: link to %q: %s has no anchor %q", p.Slug, l, tp.Slug, frag))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("broken links:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

func isExternal(l string) bool {
	return strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:")
}

// Build loads the site from root and writes it into out.
func Build(root, out string) (*Site, error) {
	s, err := Load(root)
	if err != nil {
		return nil, err
	}
	return s, s.Write(out)
}

// Write writes the pages, the assets and the search index (JSON, and the
// same as a script for search.js) into out.
func (s *Site) Write(out string) error {
	if err := os.MkdirAll(filepath.Join(out, "assets"), 0o755); err != nil {
		return err
	}
	for i, p := range s.Pages {
		var prev, next *Page
		if i > 0 {
			prev = s.Pages[i-1]
		}
		if i+1 < len(s.Pages) {
			next = s.Pages[i+1]
		}
		var buf bytes.Buffer
		if err := pageTemplate.Execute(&buf, pageData{Site: s, Page: p, Prev: prev, Next: next}); err != nil {
			return fmt.Errorf("page %s: %w", p.Slug, err)
		}
		if err := os.WriteFile(filepath.Join(out, p.URL()), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	assets := filepath.Join(s.Root, "website", "assets")
	err := filepath.WalkDir(assets, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(assets, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, "assets", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	index, err := json.Marshal(s.searchIndex())
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "search-index.json"), index, 0o644); err != nil {
		return err
	}
	// The same index as a script, which search.js loads with a <script>
	// element: a page opened from disk (file://) may not fetch a file.
	script := append(append([]byte("window.streamctlSearchIndex = "), index...), ";\n"...)
	return os.WriteFile(filepath.Join(out, "search-index.js"), script, 0o644)
}

// SearchSection is one entry of the search index: a page's text under one
// heading.
type SearchSection struct {
	Page    string `json:"p"` // page title
	Heading string `json:"h"` // heading text, "" for the page's top
	URL     string `json:"u"`
	Text    string `json:"x"`
}

func (s *Site) searchIndex() []SearchSection {
	var out []SearchSection
	for _, p := range s.Pages {
		for _, sec := range p.Sections {
			sec.Page = p.Title
			out = append(out, sec)
		}
	}
	return out
}

// textOf is the plain text of a node's inline content.
func textOf(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func linesOf(n ast.Node, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}
