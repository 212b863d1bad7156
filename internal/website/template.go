package website

import "html/template"

type pageData struct {
	Site       *Site
	Page       *Page
	Prev, Next *Page
}

// Sections groups the pages for the navigation.
func (d pageData) Sections() []navSection {
	var out []navSection
	for _, name := range Sections {
		sec := navSection{Name: name}
		for _, p := range d.Site.Pages {
			if p.Section == name {
				sec.Pages = append(sec.Pages, p)
			}
		}
		if len(sec.Pages) > 0 {
			out = append(out, sec)
		}
	}
	return out
}

// TOC lists the page's second-level headings.
func (d pageData) TOC() []Heading {
	var out []Heading
	for _, h := range d.Page.Headings {
		if h.Level == 2 {
			out = append(out, h)
		}
	}
	return out
}

type navSection struct {
	Name  string
	Pages []*Page
}

// The layout works without JavaScript except for search: the menu on narrow
// screens is a checkbox, the favicon is inline so that no request 404s.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Page.Title}} · streamctl</title>
{{with .Page.Summary}}<meta name="description" content="{{.}}">
{{end}}<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/style.css">
<script src="assets/search.js" defer></script>
</head>
<body>
<header class="topbar">
  <label for="nav-toggle" class="menu-button" aria-label="Menu">☰</label>
  <a class="brand" href="index.html"><span class="logo">▶▶</span> streamctl</a>
  <div class="search" role="search">
    <input id="search" type="search" placeholder="Search the docs…" autocomplete="off" aria-label="Search the docs">
    <ol id="search-results" class="search-results" hidden></ol>
  </div>
</header>
<input type="checkbox" id="nav-toggle" class="nav-toggle">
<div class="layout">
<nav class="sidebar" aria-label="Pages">
{{- range .Sections}}
  <div class="nav-section">
    <h2>{{.Name}}</h2>
    <ul>
    {{- range .Pages}}
      <li><a href="{{.URL}}"{{if eq .Slug $.Page.Slug}} class="current" aria-current="page"{{end}}>{{.Title}}</a></li>
    {{- end}}
    </ul>
  </div>
{{- end}}
</nav>
<main>
<article class="content">
{{.Page.HTML}}
</article>
<footer class="pager">
{{- with .Prev}}<a class="prev" href="{{.URL}}"><small>Previous</small>{{.Title}}</a>{{else}}<span></span>{{end}}
{{- with .Next}}<a class="next" href="{{.URL}}"><small>Next</small>{{.Title}}</a>{{end}}
</footer>
</main>
{{- with .TOC}}
<aside class="toc" aria-label="On this page">
  <h2>On this page</h2>
  <ul>
  {{- range .}}
    <li><a href="#{{.ID}}">{{.Text}}</a></li>
  {{- end}}
  </ul>
</aside>
{{- end}}
</div>
</body>
</html>
`))
