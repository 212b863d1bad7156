// Client-side search over the search index: one entry per section of a page
// (page title, heading, URL, text). The index is search-index.js, a script
// that sets window.streamctlSearchIndex, loaded on first use with a <script>
// element: unlike fetch, that works when the site is opened from disk
// (file://). Every query word must appear; the whole phrase and matches in
// headings rank first.
(function () {
  "use strict";
  var input, list, index = null, loading = null, active = -1;

  function load() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        if (window.streamctlSearchIndex) {
          resolve(window.streamctlSearchIndex);
          return;
        }
        var script = document.createElement("script");
        script.src = "search-index.js";
        script.onload = function () {
          if (window.streamctlSearchIndex) resolve(window.streamctlSearchIndex);
          else reject(new Error("search-index.js holds no index"));
        };
        script.onerror = function () {
          loading = null; // try again on the next keystroke
          reject(new Error("search-index.js could not be loaded"));
        };
        document.head.appendChild(script);
      })
        .then(function (data) {
          index = data.map(function (e) {
            e.lh = (e.h || "").toLowerCase();
            e.lp = e.p.toLowerCase();
            e.lx = e.x.toLowerCase();
            return e;
          });
          return index;
        });
    }
    return loading;
  }

  function normalise(s) {
    return s.toLowerCase().replace(/[\u2010-\u2015-]+/g, " ").replace(/\s+/g, " ").trim();
  }

  function search(query) {
    var q = normalise(query);
    if (q.length < 2) return [];
    var words = q.split(" ");
    var results = [];
    index.forEach(function (e) {
      var hay = e.lp + " " + e.lh + " " + e.lx.replace(/-/g, " ");
      for (var i = 0; i < words.length; i++) {
        if (hay.indexOf(words[i]) < 0) return;
      }
      var score = 0;
      if (e.lh.indexOf(q) >= 0) score += 40;
      if (e.lp.indexOf(q) >= 0) score += 25;
      if (hay.indexOf(q) >= 0) score += 20;
      words.forEach(function (w) {
        if (e.lh.indexOf(w) >= 0) score += 6;
        if (e.lp.indexOf(w) >= 0) score += 3;
      });
      results.push({ e: e, score: score });
    });
    results.sort(function (a, b) { return b.score - a.score; });
    return results.slice(0, 12).map(function (r) { return r.e; });
  }

  // snippet returns the text around the first match, as DOM nodes with <mark>.
  function snippet(text, query) {
    var lower = text.toLowerCase().replace(/-/g, " ");
    var q = normalise(query);
    var at = lower.indexOf(q);
    var len = q.length;
    if (at < 0) {
      var w = q.split(" ")[0];
      at = lower.indexOf(w);
      len = w.length;
    }
    var frag = document.createDocumentFragment();
    if (at < 0) {
      frag.appendChild(document.createTextNode(text.slice(0, 140)));
      return frag;
    }
    var start = Math.max(0, at - 60), end = Math.min(text.length, at + len + 80);
    frag.appendChild(document.createTextNode((start > 0 ? "… " : "") + text.slice(start, at)));
    var m = document.createElement("mark");
    m.textContent = text.slice(at, at + len);
    frag.appendChild(m);
    frag.appendChild(document.createTextNode(text.slice(at + len, end) + (end < text.length ? " …" : "")));
    return frag;
  }

  function show(query) {
    var found = search(query);
    list.textContent = "";
    active = -1;
    if (normalise(query).length < 2) {
      list.hidden = true;
      return;
    }
    if (found.length === 0) {
      var none = document.createElement("li");
      none.className = "r-none";
      none.textContent = "Nothing found for “" + query + "”.";
      list.appendChild(none);
    }
    found.forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e.u;
      var title = document.createElement("span");
      title.className = "r-title";
      title.textContent = e.h || e.p;
      a.appendChild(title);
      if (e.h) {
        var page = document.createElement("span");
        page.className = "r-page";
        page.textContent = " — " + e.p;
        a.appendChild(page);
      }
      var snip = document.createElement("span");
      snip.className = "r-snippet";
      snip.appendChild(snippet(e.x, query));
      a.appendChild(snip);
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  function move(delta) {
    var links = list.querySelectorAll("a");
    if (links.length === 0) return;
    if (active >= 0) links[active].classList.remove("active");
    active = (active + delta + links.length) % links.length;
    links[active].classList.add("active");
    links[active].scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("DOMContentLoaded", function () {
    input = document.getElementById("search");
    list = document.getElementById("search-results");
    if (!input || !list) return;
    input.addEventListener("focus", function () { load().catch(function () {}); });
    input.addEventListener("input", function () {
      var q = input.value;
      load().then(function () { if (input.value === q) show(q); }).catch(function (err) {
        list.textContent = "";
        var li = document.createElement("li");
        li.className = "r-none";
        li.textContent = "Search is unavailable: " + err.message;
        list.appendChild(li);
        list.hidden = false;
      });
    });
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown") { move(1); ev.preventDefault(); }
      else if (ev.key === "ArrowUp") { move(-1); ev.preventDefault(); }
      else if (ev.key === "Enter") {
        var links = list.querySelectorAll("a");
        if (links.length > 0) window.location.href = links[Math.max(active, 0)].href;
      } else if (ev.key === "Escape") { list.hidden = true; input.blur(); }
    });
    document.addEventListener("click", function (ev) {
      if (!list.contains(ev.target) && ev.target !== input) list.hidden = true;
    });
    // "/" focuses the search box, as on many documentation sites.
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "/" && document.activeElement !== input) { input.focus(); ev.preventDefault(); }
    });
  });
})();
