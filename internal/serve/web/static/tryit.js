// "Try it" on instruction pages: runs the form through /api/v1/eval and
// shows the lanes, wave-wide results and every assignment. Without
// JavaScript the form submits to the API and the browser shows its JSON.
(function () {
  "use strict";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function values(list) {
    var td = el("td");
    list.forEach(function (o, i) {
      if (i) td.appendChild(document.createTextNode(", "));
      td.appendChild(el("code", "", o.name + " = " + o.value));
      if (o.value !== o.bits) td.appendChild(el("span", "muted", " " + o.bits));
    });
    return td;
  }
  function renderMatrix(box, r) {
    var m = r.matrix;
    var p = el("p"); p.appendChild(el("code", "", m.formula)); p.appendChild(el("span", "muted", " " + m.inputs.join("; "))); box.appendChild(p);
    var table = el("table", "list tryit-table tryit-matrix");
    table.appendChild(el("caption", "", "D (" + m.rows + "x" + m.cols + " " + m.type + "), row by row"));
    var body = el("tbody");
    for (var i = 0; i < m.rows; i++) {
      var tr = el("tr");
      m.values.slice(i * m.cols, (i + 1) * m.cols).forEach(function (v) { var td = el("td", "num"); td.appendChild(el("code", "", v)); tr.appendChild(td); });
      body.appendChild(tr);
    }
    table.appendChild(body); box.appendChild(table);
    box.appendChild(el("p", "muted small", m.note));
    box.appendChild(el("p", "muted small", r.mode));
  }
  function render(box, r) {
    box.textContent = "";
    if (r.matrix) { renderMatrix(box, r); return; }
    var table = el("table", "list tryit-table");
    var head = el("tr");
    ["Lane", "Inputs", "Result"].forEach(function (h) { var th = el("th", "", h); th.scope = "col"; head.appendChild(th); });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    r.lanes.forEach(function (l) {
      var tr = el("tr");
      tr.appendChild(el("td", "num", String(l.lane)));
      tr.appendChild(values(l.inputs));
      tr.appendChild(values(l.outputs));
      body.appendChild(tr);
    });
    table.appendChild(body);
    box.appendChild(table);
    r.wave.forEach(function (o) { var p = el("p"); p.appendChild(el("code", "", o.name + " = " + o.value)); p.appendChild(el("span", "muted", " one bit per lane")); box.appendChild(p); });
    if (r.changes.length) { var p = el("p"); p.appendChild(el("code", "", r.changes.join(" · "))); box.appendChild(p); }
    if (r.trace.length) {
      var d = el("details"); d.appendChild(el("summary", "", "Every assignment (" + r.trace.length + (r.truncated ? ", cut" : "") + ")"));
      var ol = el("ol", "tryit-trace");
      r.trace.forEach(function (s) { ol.appendChild(el("li", "", "lane " + s.lane + ", line " + s.line + ": " + s.target + " = " + s.value)); });
      d.appendChild(ol); box.appendChild(d);
    }
    box.appendChild(el("p", "muted small", r.mode));
  }
  document.querySelectorAll("form.tryit-form").forEach(function (form) {
    var box = form.parentNode.querySelector(".tryit-result");
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var q = new URLSearchParams(new FormData(form));
      fetch("/api/v1/eval?" + q.toString(), { headers: { Accept: "application/json" } })
        .then(function (resp) { return resp.json().then(function (j) { return { ok: resp.ok, j: j }; }); })
        .then(function (x) {
          if (!x.ok) { box.textContent = ""; box.appendChild(el("p", "check bad", x.j.error || "error")); return; }
          render(box, x.j);
        })
        .catch(function (e) { box.textContent = ""; box.appendChild(el("p", "check bad", String(e))); });
    });
  });
})();
