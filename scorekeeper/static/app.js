/* 고스톱 점수판: taps without reloads, live updates, the rules sheet, recent tables.
   Plain JavaScript, no inline script anywhere (the page's CSP allows only this file).
   Every form also works without it (post/redirect/get). */
(function () {
  "use strict";

  var region = document.getElementById("region");
  var busy = false;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // -- the region: replaced whole by the server's partial -------------------------------
  function checkedCards() {
    return $$("input[name=cards]:checked", region).map(function (i) { return i.value; });
  }

  function swap(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.getElementById("region");
    if (!fresh || !region) { return false; }
    var keep = checkedCards();
    var open = $$("details[id][open]", region).map(function (d) { return d.id; });
    region.replaceWith(fresh);
    region = fresh;
    keep.forEach(function (code) {
      var box = region.querySelector("input[name=cards][value='" + code + "']");
      if (box && !box.disabled) { box.checked = true; }
    });
    open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
    var prompt = region.querySelector(".prompt, .refusal");
    if (prompt && prompt.getBoundingClientRect().top < 0) { prompt.scrollIntoView({ block: "start" }); }
    document.dispatchEvent(new CustomEvent("sk:swapped"));
    return true;
  }

  function setBusy(on) {
    busy = on;
    document.documentElement.classList.toggle("busy", on);
    var note = $("#pending");
    if (note) { note.hidden = !on; }
  }

  function post(url, data) {
    setBusy(true);
    return fetch(url, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Partial": "1", "Accept": "text/html" }
    }).then(function (r) {
      return r.text().then(function (text) {
        if (!swap(text)) { window.location.reload(); }
      });
    }).catch(function () {
      var note = $("#offline");
      if (note) { note.hidden = false; }
    }).then(function () { setBusy(false); });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches("form[data-live]") || !window.fetch || !region) { return; }
    ev.preventDefault();
    if (busy) { return; }
    var data = new FormData(form, ev.submitter || undefined);
    if (form.hasAttribute("data-with-cards")) {
      // The capture buttons live in their own form; the picked cards are in the picker.
      checkedCards().forEach(function (code) { data.append("cards", code); });
    }
    post(form.getAttribute("action"), data);
  });

  // -- live updates: poll the table's version, refresh the region when it moves ---------
  function refresh() {
    if (!region || !region.dataset.refresh) { return; }
    fetch(region.dataset.refresh, { credentials: "same-origin", headers: { "X-Partial": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) { if (text) { swap(text); } })
      .catch(function () { /* offline: the next poll tries again */ });
  }

  function poll() {
    if (!region || !region.dataset.poll || busy || document.hidden) { return; }
    fetch(region.dataset.poll, {
      credentials: "same-origin", cache: "no-store",
      headers: { "If-None-Match": '"v' + region.dataset.version + '"' }
    }).then(function (r) {
      var off = $("#offline");
      if (off) { off.hidden = true; }
      return r.status === 200 ? r.json() : null;
    }).then(function (body) {
      if (body && String(body.version) !== region.dataset.version) { refresh(); }
    }).catch(function () {
      var off = $("#offline");
      if (off) { off.hidden = false; }
    });
  }

  if (region && region.dataset.poll) {
    setInterval(poll, parseInt(region.dataset.interval || "1500", 10));
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }

  // -- the rules sheet: a preset sets every option; changes are highlighted ------------
  var presetData = $("#preset-data");
  if (presetData) {
    var presets = JSON.parse(presetData.textContent);
    var presetSelect = $("select[name=preset]");
    var valueOf = function (input) {
      if (input.type === "checkbox") { return input.checked; }
      if (input.type === "number") { return Number(input.value); }
      return input.value;
    };
    var mark = function () {
      var base = presets[presetSelect.value] || {};
      $$(".opt [name^=opt_]").forEach(function (input) {
        var name = input.name.slice(4);
        input.closest(".opt").classList.toggle("changed", valueOf(input) !== base[name]);
      });
    };
    presetSelect.addEventListener("change", function () {
      var base = presets[presetSelect.value] || {};
      $$(".opt [name^=opt_]").forEach(function (input) {
        var v = base[input.name.slice(4)];
        if (input.type === "checkbox") { input.checked = !!v; } else { input.value = v; }
      });
      mark();
    });
    document.addEventListener("input", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
    document.addEventListener("change", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
    mark();
    var apply = $("#apply-preset");
    if (apply) { apply.hidden = true; }
  }

  // -- quick entry: the payment previewed by the engine as the form changes ------------
  var quick = $("form[data-preview]");
  if (quick && window.fetch) {
    var timer = null;
    var exclusive = function () {
      // A card belongs to one player: taken by one, greyed out for the others.
      var owner = {};
      $$("input[type=checkbox][name$='-cards']:checked", quick).forEach(function (i) { owner[i.value] = i.name; });
      $$("input[type=checkbox][name$='-cards']", quick).forEach(function (i) {
        var label = i.closest(".hc");
        if (label) { label.classList.toggle("elsewhere", !!owner[i.value] && owner[i.value] !== i.name); }
      });
    };
    var preview = function () {
      var data = new FormData(quick);
      data.set("action", "preview");
      fetch(quick.getAttribute("action"), { method: "POST", body: data, credentials: "same-origin", headers: { "X-Partial": "1" } })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var t = document.createElement("template");
          t.innerHTML = html;
          var fresh = t.content.getElementById("preview");
          var old = document.getElementById("preview");
          if (fresh && old) { old.replaceWith(fresh); }
        }).catch(function () { /* keep the last preview */ });
    };
    quick.addEventListener("change", function () { exclusive(); clearTimeout(timer); timer = setTimeout(preview, 250); });
    quick.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(preview, 400); });
    exclusive();
  }

  // -- recent tables on this phone ----------------------------------------------------
  var KEY = "sk.recent";
  function recent() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  var here = document.body.dataset.table;
  if (here) {
    try {
      var list = recent().filter(function (t) { return t.id !== here; });
      list.unshift({ id: here, title: document.body.dataset.title || here, url: window.location.pathname, at: Date.now() });
      localStorage.setItem(KEY, JSON.stringify(list.slice(0, 12)));
    } catch (e) { /* private mode: nothing kept */ }
  }
  var shelf = $("#recent-local");
  if (shelf) {
    var shown = {};
    $$("[data-table-id]").forEach(function (el) { shown[el.dataset.tableId] = true; });
    recent().forEach(function (t) {
      if (shown[t.id] || typeof t.url !== "string" || t.url.indexOf("/t/") !== 0) { return; }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = t.url;
      a.textContent = t.title;
      li.appendChild(a);
      shelf.appendChild(li);
    });
    var empty = $("#recent-empty");
    if (empty && shelf.children.length) { empty.hidden = true; }
  }

  // -- copy buttons for share links ----------------------------------------------------
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-copy]");
    if (!btn || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(btn.dataset.copy).then(function () { btn.classList.add("copied"); });
  });
}());
