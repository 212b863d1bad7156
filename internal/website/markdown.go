package website

import (
	"bytes"
	htmlpkg "html"
	"html/template"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// md renders the pages: GitHub-flavoured Markdown (tables), heading IDs
// (automatic, or {#id}), raw HTML for figures and anchors, and our code block
// renderer. Each page gets a fresh parser context so heading IDs are unique
// per page.
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
	goldmark.WithRendererOptions(
		html.WithUnsafe(),
		renderer.WithNodeRenderers(util.Prioritized(codeRenderer{}, 100)),
	),
)

// codeRenderer writes fenced code blocks highlighted, with the language as a
// class and a label.
type codeRenderer struct{}

func (codeRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		cb := n.(*ast.FencedCodeBlock)
		lang := string(cb.Language(src))
		w.WriteString(`<div class="code"`)
		if lang != "" && lang != "text" {
			w.WriteString(` data-lang="` + template.HTMLEscapeString(lang) + `"`)
		}
		w.WriteString(`><pre><code class="language-` + template.HTMLEscapeString(lang) + `">`)
		w.WriteString(Highlight(lang, linesOf(cb, src)))
		w.WriteString("</code></pre></div>\n")
		return ast.WalkSkipChildren, nil
	})
}

var rawID = regexp.MustCompile(`\bid="([^"]+)"`)

// renderPage parses the page's Markdown, rewrites links to other pages'
// sources (x.md → x.html), collects its headings, ids, links, code and search
// text, and renders the HTML.
func renderPage(p *Page) error {
	src := []byte(p.Markdown)
	doc := md.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	p.IDs = map[string]bool{}
	var sec *SearchSection
	flush := func() {
		if sec != nil {
			sec.Text = strings.Join(strings.Fields(sec.Text), " ")
			if sec.Text != "" || sec.Heading != "" {
				p.Sections = append(p.Sections, *sec)
			}
		}
	}
	sec = &SearchSection{URL: p.URL()}
	addText := func(s string) {
		sec.Text += " " + s
	}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			id, _ := n.AttributeString("id")
			idStr := string(asBytes(id))
			t := textOf(n, src)
			p.Headings = append(p.Headings, Heading{Level: n.Level, ID: idStr, Text: t})
			p.IDs[idStr] = true
			if n.Level == 1 {
				addText(t)
				return ast.WalkSkipChildren, nil
			}
			flush()
			sec = &SearchSection{URL: p.URL() + "#" + idStr, Heading: t}
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			dest := string(n.Destination)
			p.Links = append(p.Links, dest)
			n.Destination = []byte(rewriteLink(dest))
		case *ast.FencedCodeBlock:
			lang := string(n.Language(src))
			info := ""
			if n.Info != nil {
				info = string(n.Info.Segment.Value(src))
			}
			if lang == "" {
				lang = "text"
			}
			code := linesOf(n, src)
			p.Code = append(p.Code, Code{Lang: lang, Info: info, Text: code})
			addText(code)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			t := textOf(n, src)
			p.Code = append(p.Code, Code{Lang: "text", Text: t, Inline: true})
		case *ast.HTMLBlock:
			raw := linesOf(n, src)
			for _, m := range rawID.FindAllStringSubmatch(raw, -1) {
				p.IDs[m[1]] = true
			}
			for _, m := range rawHref.FindAllStringSubmatch(raw, -1) {
				p.Links = append(p.Links, m[1])
			}
			addText(stripTags(raw))
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				s := n.Segments.At(i)
				raw.Write(s.Value(src))
			}
			for _, m := range rawID.FindAllStringSubmatch(raw.String(), -1) {
				p.IDs[m[1]] = true
			}
			for _, m := range rawHref.FindAllStringSubmatch(raw.String(), -1) {
				p.Links = append(p.Links, m[1])
			}
		case *ast.Text:
			addText(string(n.Segment.Value(src)))
		case *ast.String:
			addText(string(n.Value))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return err
	}
	flush()
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return err
	}
	p.HTML = template.HTML(wrapTables(rewriteRawLinks(buf.String())))
	p.doc = doc
	return nil
}

var (
	rawHref = regexp.MustCompile(`\b(?:href|src)="([^"]+)"`)
	tags    = regexp.MustCompile(`<[^>]*>`)
)

func stripTags(s string) string { return tags.ReplaceAllString(s, " ") }

// wrapTables puts each table in a box that scrolls sideways, so that a wide
// table never widens the page. A table of three columns or more (the
// reference's attribute tables) is marked to stack on a phone: each row a
// block, each cell under its column's name, which the cell carries.
func wrapTables(html string) string {
	return tableHTML.ReplaceAllStringFunc(html, func(table string) string {
		var labels []string
		if head := theadHTML.FindString(table); head != "" {
			for _, m := range thHTML.FindAllStringSubmatch(head, -1) {
				labels = append(labels, strings.TrimSpace(stripTags(m[1])))
			}
		}
		if len(labels) >= 3 {
			table = strings.Replace(table, "<table>", `<table class="stack">`, 1)
			table = trHTML.ReplaceAllStringFunc(table, func(row string) string {
				i := 0
				return tdOpen.ReplaceAllStringFunc(row, func(td string) string {
					if i >= len(labels) {
						return td
					}
					label := labels[i]
					i++
					return td[:3] + ` data-label="` + htmlpkg.EscapeString(label) + `"` + td[3:]
				})
			})
		}
		return `<div class="table-scroll">` + table + `</div>`
	})
}

var (
	tableHTML = regexp.MustCompile(`(?s)<table>.*?</table>`)
	theadHTML = regexp.MustCompile(`(?s)<thead>.*?</thead>`)
	thHTML    = regexp.MustCompile(`(?s)<th[^>]*>(.*?)</th>`)
	trHTML    = regexp.MustCompile(`(?s)<tr>.*?</tr>`)
	tdOpen    = regexp.MustCompile(`<td[^>]*>`)
)

func asBytes(v any) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case string:
		return []byte(v)
	}
	return nil
}

// rewriteLink turns a link to a page's source into a link to the page.
func rewriteLink(dest string) string {
	if isExternal(dest) {
		return dest
	}
	path, frag, hasFrag := strings.Cut(dest, "#")
	if base, ok := strings.CutSuffix(path, ".md"); ok {
		path = base + ".html"
	}
	if hasFrag {
		return path + "#" + frag
	}
	return path
}

// rewriteRawLinks applies rewriteLink to href attributes written in raw HTML.
func rewriteRawLinks(s string) string {
	return rawHref.ReplaceAllStringFunc(s, func(m string) string {
		sub := rawHref.FindStringSubmatch(m)
		return strings.Replace(m, sub[1], rewriteLink(sub[1]), 1)
	})
}
