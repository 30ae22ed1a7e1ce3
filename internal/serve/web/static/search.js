// gpuisa: the site's script, all of it optional. Without JavaScript every
// form submits to the server and every picker works with CSS alone.
//
// - "/" focuses the header search from any page.
// - The header search suggests as you type (a combobox: arrow keys, Enter,
//   Escape): the family being browsed first, every suggestion labelled with
//   its family; a hex word is offered as its decoding; Enter on an exact
//   name opens that instruction in the family being browsed.
// - A family index filters by text, category, unit and format.
// - A PTX page's forms filter by type or modifier, and load the rest of a
//   long table in place; the counterparts' family picker retargets links.
// - While the database is provisional (the documents' facts, served while
//   the oracle passes run), the banner shows verification's progress and
//   says when a more-verified database is being served.
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  function pageURL(hit) {
    if (hit.arch === "ptx") return "/ptx/" + encodeURIComponent(hit.name);
    return "/amdgpu/" + encodeURIComponent(hit.arch) + "/" + encodeURIComponent(hit.name);
  }

  // Family display names, from the header form (data-families="id:Name|...").
  var familyNames = {};
  function familyName(id) { return familyNames[id] || id; }

  function looksLikeHex(q) {
    return /^(\s*(0x)?[0-9a-f]{8}([0-9a-f]{8})?\s*)+$/i.test(q) || /^\s*\[\s*0x[0-9a-f]{1,2}(\s*,\s*0x[0-9a-f]{1,2})*\s*\]\s*$/i.test(q);
  }

  function setupSlash() {
    var q = document.getElementById("q");
    if (!q) return;
    // Some input paths deliver the key's character as an event of its own
    // after the keydown moved the focus: that one "/" is not typed.
    var swallow = false;
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
      var t = e.target;
      var tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      e.preventDefault();
      swallow = true;
      q.focus();
      q.select();
    });
    q.addEventListener("keypress", function (e) {
      if (swallow && e.key === "/") e.preventDefault();
      swallow = false;
    });
    q.addEventListener("beforeinput", function (e) {
      if (swallow && e.data === "/") e.preventDefault();
      swallow = false;
    });
    document.addEventListener("keyup", function (e) { if (e.key === "/") setTimeout(function () { swallow = false; }, 0); });
  }

  function setupSearch() {
    var input = document.getElementById("q");
    var list = document.getElementById("q-results");
    if (!input || !list) return;
    var form = input.form;
    (form && form.getAttribute("data-families") || "").split("|").forEach(function (pair) {
      var i = pair.indexOf(":");
      if (i > 0) familyNames[pair.slice(0, i)] = pair.slice(i + 1);
    });
    var items = [], active = -1, timer = 0, seq = 0, exact = null;

    function close() {
      list.hidden = true;
      list.textContent = "";
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      items = []; active = -1;
    }

    function highlight(i) {
      var lis = list.children;
      for (var k = 0; k < lis.length; k++) lis[k].setAttribute("aria-selected", k === i ? "true" : "false");
      active = i;
      if (i >= 0 && lis[i]) {
        input.setAttribute("aria-activedescendant", lis[i].id);
        lis[i].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function show(entries) {
      list.textContent = "";
      items = entries;
      if (items.length === 0) { close(); return; }
      items.forEach(function (it, i) {
        var li = document.createElement("li");
        li.id = "q-opt-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        if (it.here) li.className = "here";
        var name = document.createElement("code");
        name.textContent = it.name;
        var arch = document.createElement("span");
        arch.className = "arch";
        arch.textContent = it.label;
        arch.setAttribute("data-arch", it.arch);
        var sum = document.createElement("span");
        sum.className = "sum";
        sum.textContent = it.summary || "";
        li.appendChild(name); li.appendChild(arch); li.appendChild(sum);
        li.addEventListener("mousedown", function (e) { e.preventDefault(); window.location.href = it.url; });
        list.appendChild(li);
      });
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      highlight(-1);
    }

    // On a family's pages the form carries that family (the checked "arch"
    // box): its suggestions come first, then every family's.
    var scopeBox = document.getElementById("q-scope");
    function scope() { return scopeBox && scopeBox.checked ? scopeBox.value : ""; }

    function fetchHits(q, arch, limit) {
      var url = "/api/v1/search?limit=" + limit + "&q=" + encodeURIComponent(q);
      if (arch) url += "&arch=" + encodeURIComponent(arch);
      return fetch(url, { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : { hits: [] }; })
        .catch(function () { return { hits: [] }; });
    }

    function entriesOf(q, here, all, arch) {
      var out = [], seen = {};
      exact = null;
      // A hex word: its decoding first, in the family browsed or each.
      var decoded = (here && here.decoded && here.decoded.length ? here.decoded : (all && all.decoded) || []);
      decoded.slice(0, 3).forEach(function (d) {
        var first = (d.instructions || [])[0];
        if (!first) return;
        out.push({ name: first.text, arch: d.arch, label: "decode · " + familyName(d.arch), here: d.arch === arch,
          summary: d.instructions.length > 1 ? d.instructions.length + " instructions" : first.encoding,
          url: "/decode?arch=" + encodeURIComponent(d.arch) + "&hex=" + encodeURIComponent(q) });
      });
      function add(h, mine) {
        var key = h.arch + "/" + h.name;
        if (seen[key]) return;
        seen[key] = true;
        var e = { name: h.name, arch: h.arch, label: familyName(h.arch), here: mine, summary: h.summary, url: pageURL(h) };
        if (mine && !exact && h.name.toLowerCase() === q.toLowerCase()) exact = e;
        out.push(e);
      }
      // An exact name offers its page in every family that has it (the
      // answer over every family lists them in h.archs), newest first.
      function addEach(h) {
        if (h.name.toLowerCase() !== q.toLowerCase() || !h.archs || h.archs.length < 2) {
          if (out.length < 10) add(h, h.arch === arch);
          return;
        }
        h.archs.forEach(function (a) {
          if (out.length < 14) add({ name: h.name, arch: a, summary: h.summary }, a === arch);
        });
      }
      ((here && here.hits) || []).forEach(function (h) { add(h, true); });
      ((all && all.hits) || []).forEach(addEach);
      return out;
    }

    function query() {
      var q = input.value.trim();
      if (q.length === 0) { close(); return; }
      var mine = ++seq;
      var arch = scope();
      var calls = [arch ? fetchHits(q, arch, 6) : Promise.resolve(null), fetchHits(q, "", 8)];
      Promise.all(calls).then(function (res) {
        if (mine === seq) show(entriesOf(q, res[0], res[1], arch));
      });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      exact = null;
      timer = setTimeout(query, 120);
    });
    if (scopeBox) scopeBox.addEventListener("change", function () { if (input.value.trim()) { input.focus(); query(); } });
    function go() {
      if (active >= 0 && items[active]) { window.location.href = items[active].url; return true; }
      var q = input.value.trim();
      if (exact && exact.name.toLowerCase() === q.toLowerCase()) { window.location.href = exact.url; return true; }
      var arch = scope();
      if (arch && arch !== "ptx" && looksLikeHex(q)) {
        window.location.href = "/decode?arch=" + encodeURIComponent(arch) + "&hex=" + encodeURIComponent(q);
        return true;
      }
      return false;
    }
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") {
        if (items.length === 0) return;
        e.preventDefault();
        highlight((active + 1) % items.length);
      } else if (e.key === "ArrowUp") {
        if (items.length === 0) return;
        e.preventDefault();
        highlight(active <= 0 ? items.length - 1 : active - 1);
      } else if (e.key === "Enter") {
        if (go()) e.preventDefault();
      } else if (e.key === "Escape") {
        close();
      }
    });
    // Some input paths deliver Enter as a separate character event that still
    // submits the form; go to the chosen page in that case too (the server
    // answers the same way for a plain submit: /search redirects an exact
    // name or a decodable word in the family browsed).
    if (form) {
      form.addEventListener("submit", function (e) { if (go()) e.preventDefault(); });
    }
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  // --- family index filter ---

  function setupFilter() {
    var box = document.getElementById("filter-box");
    var input = document.getElementById("filter");
    var count = document.getElementById("filter-count");
    var listRoot = document.getElementById("family-list");
    if (!box || !input || !listRoot) return;
    box.hidden = false;
    box.addEventListener("submit", function (e) { e.preventDefault(); });
    var cat = document.getElementById("filter-cat");
    var unit = document.getElementById("filter-unit");
    var format = document.getElementById("filter-format");
    var compact = listRoot.classList.contains("compact");
    // Every entry: its element, name and (from the table, or the family's
    // JSON list once loaded) summary and formats.
    var entries = [];
    var byName = {};
    listRoot.querySelectorAll("section.category").forEach(function (sec) {
      sec.querySelectorAll(compact ? "ul.names > li" : "tr[data-name]").forEach(function (el) {
        var name = compact ? el.textContent.trim() : el.getAttribute("data-name");
        var e = { el: el, sec: sec, name: name, text: compact ? name : el.textContent.toLowerCase(), formats: null };
        if (!compact) {
          var cells = el.querySelectorAll("td");
          e.formats = cells.length > 1 ? cells[0].textContent.split(/,\s*/) : [];
        }
        entries.push(e);
        byName[name] = e;
      });
    });
    var loaded = !compact, loading = null;
    function load() {
      if (loaded || loading) return loading;
      var api = box.getAttribute("data-api");
      loading = fetch(api, { headers: { Accept: "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .catch(function () { return fetch(api + ".json").then(function (r) { return r.ok ? r.json() : []; }); })
        .then(function (list) {
          (list || []).forEach(function (s) {
            var e = byName[s.name];
            if (!e) return;
            e.text = (s.name + " " + (s.summary || "")).toLowerCase();
            e.formats = s.formats || [];
            e.summary = s.summary || "";
          });
          loaded = true;
          apply();
        })
        .catch(function () { loaded = true; });
      return loading;
    }
    function apply() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var c = cat ? cat.value : "", u = unit ? unit.value : "", f = format ? format.value : "";
      if ((words.length || f) && !loaded) load();
      var active = words.length > 0 || c || u || f;
      var shown = 0;
      entries.forEach(function (e) {
        var ok = (!c || e.sec.getAttribute("aria-labelledby") === c) &&
          (!u || e.sec.getAttribute("data-unit") === u) &&
          (!f || (e.formats && e.formats.indexOf(f) >= 0)) &&
          words.every(function (w) { return e.text.indexOf(w) >= 0; });
        e.el.hidden = !ok;
        if (ok) shown++;
        if (compact) {
          var sum = e.el.querySelector(".sum");
          if (words.length && ok && e.summary) {
            if (!sum) { sum = document.createElement("span"); sum.className = "sum"; e.el.appendChild(sum); }
            sum.textContent = e.summary;
          } else if (sum) {
            sum.remove();
          }
        }
      });
      listRoot.classList.toggle("filtering", words.length > 0);
      listRoot.querySelectorAll("section.category").forEach(function (s) {
        s.hidden = s.querySelectorAll(compact ? "ul.names > li:not([hidden])" : "tr[data-name]:not([hidden])").length === 0;
      });
      count.textContent = active ? shown + " of " + entries.length + " shown" + (words.length && !loaded ? " (loading summaries…)" : "") : "";
    }
    input.addEventListener("input", apply);
    input.addEventListener("focus", load);
    [cat, unit, format].forEach(function (s) { if (s) s.addEventListener("change", apply); });
  }

  // --- PTX forms: filter by type or modifier, load the whole table ---

  function setupForms() {
    var table = document.getElementById("forms-table");
    var box = document.querySelector(".forms-filter");
    var input = document.getElementById("forms-q");
    var count = document.getElementById("forms-count");
    if (!table) return;
    var fullURL = table.getAttribute("data-all");
    var loading = null;
    function loadAll() {
      if (!fullURL) return Promise.resolve();
      if (loading) return loading;
      loading = fetch(fullURL).then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (text) {
          var doc = new DOMParser().parseFromString(text, "text/html");
          var other = doc.getElementById("forms-table");
          if (!other) return;
          table.querySelectorAll("tbody").forEach(function (b) { b.remove(); });
          other.querySelectorAll("tbody").forEach(function (b) { table.appendChild(document.importNode(b, true)); });
          fullURL = null;
          document.querySelectorAll("a.forms-all").forEach(function (a) { if (!table.contains(a)) a.parentNode.hidden = true; });
        })
        .catch(function () { loading = null; });
      return loading;
    }
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a.forms-all");
      if (!a || !fullURL || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      var hash = a.hash;
      loadAll().then(function () {
        var target = hash && document.getElementById(hash.slice(1));
        if (target) target.scrollIntoView({ block: "start" });
      });
    });
    if (!box || !input) return;
    box.hidden = false;
    function apply() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0, total = 0;
      table.querySelectorAll("tbody").forEach(function (tb) {
        var any = false;
        tb.querySelectorAll("tr[class^='form-']").forEach(function (tr) {
          total++;
          var parts = tr.querySelector("ul.parts");
          var syntax = tr.querySelector("code.syntax");
          var text = " " + ((parts ? parts.textContent : "") + " " + (syntax ? syntax.textContent : "")).toLowerCase().replace(/[{}(),;]/g, " ") + " ";
          var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
          tr.classList.toggle("filtered-out", !ok);
          if (ok) { shown++; any = true; }
        });
        tb.classList.toggle("filtered-out", words.length > 0 && !any);
        // A filter shows the folded rows that match.
        var toggle = tb.querySelector(".more-toggle");
        if (toggle && words.length) toggle.checked = true;
      });
      count.textContent = words.length ? shown + " of " + total + " forms" : "";
    }
    input.addEventListener("input", function () {
      if (fullURL && input.value.trim()) loadAll().then(apply);
      apply();
    });
    document.querySelectorAll("ul.chips[data-filter-chips] li").forEach(function (li) {
      li.setAttribute("role", "button");
      li.tabIndex = 0;
      function toggle() {
        var t = li.textContent.trim();
        var words = input.value.split(/\s+/).filter(Boolean);
        var i = words.indexOf(t);
        if (i >= 0) words.splice(i, 1); else words.push(t);
        input.value = words.join(" ");
        li.classList.toggle("on", i < 0);
        input.dispatchEvent(new Event("input"));
      }
      li.addEventListener("click", toggle);
      li.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    });
  }

  // --- counterparts: the family picked retargets each member's link ---

  function setupPicker() {
    document.querySelectorAll(".picker input[name=cpf]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        var fam = radio.id === "cpf-all" ? "" : radio.id.slice("cpf-".length);
        document.querySelectorAll(".cps ul.members > li").forEach(function (li) {
          var a = li.querySelector("a.m");
          if (!a) return;
          if (!a.hasAttribute("data-href")) a.setAttribute("data-href", a.getAttribute("href"));
          if (fam && li.classList.contains("f-" + fam)) {
            a.setAttribute("href", "/amdgpu/" + encodeURIComponent(fam.replace(/-/g, ".")) + "/" + encodeURIComponent(a.textContent.trim()));
          } else {
            a.setAttribute("href", a.getAttribute("data-href"));
          }
        });
      });
    });
  }

  function setupVerifyBanner() {
    var banner = document.getElementById("verify-banner");
    if (!banner || !window.fetch) return;
    var out = banner.querySelector(".progress");
    var build = banner.getAttribute("data-build");
    function poll() {
      fetch("/api/v1/status", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (st) {
        if (st.build !== build) {
          out.textContent = st.provisional ? "A further verification pass has landed: " : "The verified database is being served now: ";
          var a = document.createElement("a");
          a.href = location.href; a.textContent = "reload this page";
          out.appendChild(a);
          return;
        }
        if (!st.verification) {
          out.textContent = "This server runs no verification: gpuisa build (or serve) verifies it.";
          return;
        }
        out.textContent = st.summary;
        if (st.verification.running) setTimeout(poll, 3000);
      }).catch(function () { setTimeout(poll, 10000); });
    }
    poll();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupSlash(); setupSearch(); setupFilter(); setupForms(); setupPicker(); setupVerifyBanner();
  });
})();
