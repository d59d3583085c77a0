/* Recent tables on this phone: the table on screen goes first; the home page lists them. */
import { $, $$, tpl } from "./dom.js";
import { load, save } from "./store.js";

var KEY = "sk.recent";

export function keepRecent() {
  var here = document.body.dataset.table;
  if (here) {
    var list = load(KEY).filter(function (t) { return t.id !== here; });
    list.unshift({ id: here, title: document.body.dataset.title || here, url: window.location.pathname, at: Date.now() });
    save(KEY, list.slice(0, 12));
  }
  var shelf = $("#recent-local");
  if (shelf) {
    var shown = {};
    $$("[data-table-id]").forEach(function (el) { shown[el.dataset.tableId] = true; });
    load(KEY).forEach(function (t) {
      if (shown[t.id] || typeof t.url !== "string" || t.url.indexOf("/t/") !== 0) { return; }
      var li = tpl("tpl-recent");
      var a = $("a", li);
      a.href = t.url;
      a.textContent = t.title;
      shelf.appendChild(li);
    });
    var empty = $("#recent-empty");
    if (empty && shelf.children.length) { empty.hidden = true; }
  }
}
