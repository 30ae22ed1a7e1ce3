// gpuisa: search-as-you-type for the header box (a combobox with a listbox of
// suggestions, arrow keys to move, Enter to open, Escape to close) and the
// filter on family index pages. Without JavaScript both forms still work:
// the header box submits to /search.
(function () {
  "use strict";

  function pageURL(hit) {
    if (hit.arch === "ptx") return "/ptx/" + encodeURIComponent(hit.name);
    return "/amdgpu/" + encodeURIComponent(hit.arch) + "/" + encodeURIComponent(hit.name);
  }

  function setupSearch() {
    var input = document.getElementById("q");
    var list = document.getElementById("q-results");
    if (!input || !list) return;
    var hits = [], active = -1, timer = 0, seq = 0;

    function close() {
      list.hidden = true;
      list.textContent = "";
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      hits = []; active = -1;
    }

    function highlight(i) {
      var items = list.children;
      for (var k = 0; k < items.length; k++) items[k].setAttribute("aria-selected", k === i ? "true" : "false");
      active = i;
      if (i >= 0 && items[i]) {
        input.setAttribute("aria-activedescendant", items[i].id);
        items[i].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function show(result) {
      list.textContent = "";
      hits = result.hits || [];
      if (hits.length === 0) { close(); return; }
      hits.forEach(function (h, i) {
        var li = document.createElement("li");
        li.id = "q-opt-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        var name = document.createElement("code");
        name.textContent = h.name;
        var arch = document.createElement("span");
        arch.className = "arch";
        arch.textContent = h.arch;
        var sum = document.createElement("span");
        sum.className = "sum";
        sum.textContent = h.summary || "";
        li.appendChild(name); li.appendChild(arch); li.appendChild(sum);
        li.addEventListener("mousedown", function (e) { e.preventDefault(); window.location.href = pageURL(h); });
        list.appendChild(li);
      });
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      highlight(-1);
    }

    // On a family's pages the form carries that family (the checked "arch"
    // box): suggestions come from it, and from every family when it has
    // none or the box is cleared.
    var scopeBox = document.getElementById("q-scope");
    function scope() { return scopeBox && scopeBox.checked ? scopeBox.value : ""; }

    function fetchHits(q, arch) {
      var url = "/api/v1/search?limit=8&q=" + encodeURIComponent(q);
      if (arch) url += "&arch=" + encodeURIComponent(arch);
      return fetch(url, { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : { hits: [] }; });
    }

    function query() {
      var q = input.value.trim();
      if (q.length === 0) { close(); return; }
      var mine = ++seq;
      var arch = scope();
      fetchHits(q, arch)
        .then(function (res) {
          if (arch && (res.hits || []).length === 0) return fetchHits(q, "");
          return res;
        })
        .then(function (res) { if (mine === seq) show(res); })
        .catch(function () { if (mine === seq) close(); });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(query, 120);
    });
    if (scopeBox) scopeBox.addEventListener("change", function () { if (input.value.trim()) { input.focus(); query(); } });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") {
        if (hits.length === 0) return;
        e.preventDefault();
        highlight((active + 1) % hits.length);
      } else if (e.key === "ArrowUp") {
        if (hits.length === 0) return;
        e.preventDefault();
        highlight(active <= 0 ? hits.length - 1 : active - 1);
      } else if (e.key === "Enter") {
        if (active >= 0 && hits[active]) {
          e.preventDefault();
          window.location.href = pageURL(hits[active]);
        }
      } else if (e.key === "Escape") {
        close();
      }
    });
    // Some input paths deliver Enter as a separate character event that still
    // submits the form; go to the selected suggestion in that case too.
    if (input.form) {
      input.form.addEventListener("submit", function (e) {
        if (active >= 0 && hits[active]) {
          e.preventDefault();
          window.location.href = pageURL(hits[active]);
        }
      });
    }
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  function setupFilter() {
    var box = document.getElementById("filter-box");
    var input = document.getElementById("filter");
    var count = document.getElementById("filter-count");
    if (!box || !input) return;
    box.hidden = false;
    var rows = Array.prototype.slice.call(document.querySelectorAll("#family-list tr[data-name]"));
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (tr) {
        var text = tr.getAttribute("data-name") + " " + tr.getAttribute("data-text");
        var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
        tr.hidden = !ok;
        if (ok) shown++;
      });
      document.querySelectorAll("#family-list table").forEach(function (t) {
        t.hidden = t.querySelectorAll("tbody tr:not([hidden])").length === 0;
      });
      document.querySelectorAll("#family-list section.category").forEach(function (s) {
        s.hidden = s.querySelectorAll("table:not([hidden])").length === 0;
      });
      count.textContent = words.length ? shown + " of " + rows.length + " shown" : "";
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setupSearch(); setupFilter(); });
})();
