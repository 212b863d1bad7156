package website

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/streamctl/streamctl/internal/testenv"
)

// chromium is Debian's package; `make tools` installs it.
const chromium = "/usr/bin/chromium"

// TestBrowser builds the site, serves it on 127.0.0.1 and loads every page in
// headless Chromium: no console errors, no failed requests, no link to a
// missing page or anchor, no page wider than a phone's screen; search finds
// "exactly once". It saves screenshots of the home and concepts pages into
// the test's artifact directory and into website/public for review.
func TestBrowser(t *testing.T) {
	testenv.Require(t, chromium, "Chromium (Debian package chromium)")
	root := testenv.RepoRoot()
	out := t.TempDir()
	site, err := Build(root, out)
	if err != nil {
		t.Fatal(err)
	}

	// The server records every request that does not find a file: the
	// browser's view of a broken link, image, stylesheet or script.
	var mu sync.Mutex
	var missing []string
	files := http.FileServer(http.Dir(out))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/")))); err != nil && r.URL.Path != "/" {
			mu.Lock()
			missing = append(missing, r.URL.Path)
			mu.Unlock()
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the test server is not on 127.0.0.1: %s", srv.URL)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()

	var problems []string
	var pmu sync.Mutex
	report := func(format string, args ...any) {
		pmu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		pmu.Unlock()
	}
	// current is the page being loaded, for the listener's reports; the
	// listener runs on another goroutine.
	current := ""
	setCurrent := func(s string) {
		pmu.Lock()
		current = s
		pmu.Unlock()
	}
	event := func(format string, args ...any) {
		pmu.Lock()
		problems = append(problems, current+": "+fmt.Sprintf(format, args...))
		pmu.Unlock()
	}
	err = chromedp.Listen(browser, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				event("console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			event("%v", &chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails})
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				event("%s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	type pageInfo struct {
		Links []string `json:"links"`
		IDs   []string `json:"ids"`
		// Broken images have loaded with no size.
		Broken []string `json:"broken"`
		Title  string   `json:"title"`
	}
	const collect = `({
		links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
		ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
		broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),
		title: document.title,
	})`
	infos := map[string]pageInfo{}
	for _, p := range site.Pages {
		setCurrent(p.URL())
		if err := chromedp.Do(browser, chromedp.Navigate(srv.URL+"/"+p.URL()), chromedp.WaitReady("body")); err != nil {
			t.Fatalf("load %s: %v", p.URL(), err)
		}
		info, err := chromedp.Run(browser, chromedp.Evaluate[pageInfo](collect))
		if err != nil {
			t.Fatalf("read %s: %v", p.URL(), err)
		}
		for _, src := range info.Broken {
			report("%s: image %s did not load", p.URL(), src)
		}
		if !strings.Contains(info.Title, p.Title) {
			report("%s: title %q", p.URL(), info.Title)
		}
		infos[p.URL()] = info
	}

	// Iceberg tables, shards and workers have a page each, in every page's
	// navigation.
	for url, info := range infos {
		nav := map[string]bool{}
		for _, l := range info.Links {
			nav[strings.TrimPrefix(l, srv.URL+"/")] = true
		}
		for _, want := range []string{"iceberg-tables.html", "shards.html", "workers.html"} {
			if !nav[want] {
				report("%s: no link to %s", url, want)
			}
		}
	}

	// Every link to the site must reach a page that has the anchor.
	checked := 0
	for from, info := range infos {
		for _, l := range info.Links {
			u, err := url.Parse(l)
			if err != nil {
				report("%s: link %q: %v", from, l, err)
				continue
			}
			if u.Scheme+"://"+u.Host != srv.URL {
				continue
			}
			checked++
			target := strings.TrimPrefix(u.Path, "/")
			if target == "" {
				target = "index.html"
			}
			ti, isPage := infos[target]
			if !isPage {
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(target))); err != nil {
					report("%s: link to %s: no such file", from, l)
				}
				continue
			}
			if u.Fragment != "" && !contains(ti.IDs, u.Fragment) {
				report("%s: link to %s: %s has no element with id %q", from, l, target, u.Fragment)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d internal links checked", checked)
	}

	// Search, typed as a person would.
	setCurrent("search")
	if err := chromedp.Do(browser,
		chromedp.Navigate(srv.URL+"/index.html"),
		chromedp.WaitReady("#search"),
		chromedp.SendKeys("#search", "exactly once"),
		chromedp.WaitVisible("#search-results li a"),
	); err != nil {
		t.Fatalf("search: %v", err)
	}
	results, err := chromedp.Run(browser, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#search-results li a')).map(a => a.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, r := range results {
		if strings.Contains(strings.ToLower(r), "exactly once") {
			hits++
		}
	}
	if hits < 3 {
		t.Errorf("search for \"exactly once\" shows %d matching results: %q", hits, results)
	}
	// The same search on the site opened from disk, where a page may not
	// fetch a file: the index comes as a script.
	setCurrent("search from file://")
	if err := chromedp.Do(browser,
		chromedp.Navigate("file://"+filepath.ToSlash(out)+"/concepts.html"),
		chromedp.WaitReady("#search"),
		chromedp.SendKeys("#search", "moved block"),
		chromedp.WaitVisible("#search-results li"),
	); err != nil {
		t.Fatalf("search from file://: %v", err)
	}
	fileResults, err := chromedp.Run(browser, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#search-results li')).map(li => li.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(fileResults) == 0 || strings.Contains(strings.Join(fileResults, " "), "unavailable") || strings.Contains(strings.Join(fileResults, " "), "Nothing found") {
		t.Errorf("search from file:// shows %q", fileResults)
	}
	shots := map[string][]byte{}
	if shots["screenshot-search.png"], err = chromedp.Run(browser, chromedp.CaptureScreenshot()); err != nil {
		t.Fatal(err)
	}

	// Screenshots for review, desktop then phone.
	for _, shot := range []struct{ page, file string }{
		{"index.html", "screenshot-home.png"},
		{"concepts.html", "screenshot-concepts.png"},
	} {
		setCurrent(shot.page)
		if err := chromedp.Do(browser, chromedp.Navigate(srv.URL+"/"+shot.page), chromedp.WaitReady("body")); err != nil {
			t.Fatal(err)
		}
		if shots[shot.file], err = chromedp.Run(browser, chromedp.CaptureScreenshot()); err != nil {
			t.Fatal(err)
		}
	}

	// On a phone, no page may be wider than the screen: wide tables and code
	// scroll inside themselves.
	if err := chromedp.Do(browser, chromedp.EmulateViewport(375, 812, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	for _, p := range site.Pages {
		setCurrent(p.URL() + " (phone)")
		if err := chromedp.Do(browser, chromedp.Navigate(srv.URL+"/"+p.URL()), chromedp.WaitReady("body")); err != nil {
			t.Fatal(err)
		}
		width, err := chromedp.Run(browser, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
		if err != nil {
			t.Fatal(err)
		}
		if width[0] > width[1] {
			report("%s (phone): the page is %d px wide on a %d px screen", p.URL(), width[0], width[1])
		}
		// Every table fits the screen, scrolling inside its own box, and
		// its cells stay readable: not squeezed to a word per line, nor
		// one line wider than the screen.
		tables, err := chromedp.Run(browser, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('.content table')).flatMap((t, i) => {
			const box = (t.closest('.table-scroll') || t).getBoundingClientRect();
			const out = [];
			if (box.right > window.innerWidth + 1 || box.left < -1) out.push('table ' + (i+1) + ' spans ' + Math.round(box.left) + '..' + Math.round(box.right) + ' px');
			// A reference table (three columns or more) stacks, and needs
			// no sideways scrolling to be read.
			const wrap = t.closest('.table-scroll');
			if (t.rows[0] && t.rows[0].cells.length >= 3 && wrap && wrap.scrollWidth > wrap.clientWidth + 1) out.push('table ' + (i+1) + ' of ' + t.rows[0].cells.length + ' columns must be scrolled sideways: ' + wrap.scrollWidth + ' px in ' + wrap.clientWidth);
			for (const c of t.querySelectorAll('td, th')) {
				if (c.getClientRects().length === 0) continue; // a stacked table's hidden header
				const w = c.getBoundingClientRect().width;
				if ((c.textContent.trim().length > 12 && w < 60) || w > window.innerWidth) { out.push('table ' + (i+1) + ' has a cell ' + Math.round(w) + ' px wide on a ' + window.innerWidth + ' px screen: ' + c.textContent.trim().slice(0, 30)); break; }
			}
			return out;
		})`))
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range tables {
			report("%s (phone): %s", p.URL(), problem)
		}
		switch p.Slug {
		case "index":
			shots["screenshot-home-phone.png"], err = chromedp.Run(browser, chromedp.CaptureScreenshot())
		case "concepts":
			shots["screenshot-concepts-phone.png"], err = chromedp.Run(browser, chromedp.CaptureScreenshot())
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	mu.Lock()
	for _, m := range missing {
		problems = append(problems, "request for a missing file: "+m)
	}
	mu.Unlock()
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}

	// Keep the screenshots: in the test's artifact directory (kept with
	// go test -artifacts) and beside the built site for review.
	review := filepath.Join(root, "website", "public")
	if err := os.MkdirAll(review, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range shots {
		for _, dir := range []string{t.ArtifactDir(), review} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d pages, %d internal links, screenshots in %s and %s", len(site.Pages), checked, t.ArtifactDir(), review)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
