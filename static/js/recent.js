/* Recent tables on this phone: the table on screen goes first; the home page lists them. */
import { $, $$, tpl } from "./dom.js";
import { load, save } from "./store.js";

const KEY = "sk.recent";

export function keepRecent() {
  const here = document.body.dataset.table;
  if (here) {
    const list = load(KEY).filter(function (t) { return t.id !== here; });
    list.unshift({ id: here, title: document.body.dataset.title || here, url: window.location.pathname, at: Date.now() });
    save(KEY, list.slice(0, 12));
  }
  const shelf = $("#recent-local");
  if (shelf) {
    const shown = {};
    $$("[data-table-id]").forEach(function (el) { shown[el.dataset.tableId] = true; });
    load(KEY).forEach(function (t) {
      if (shown[t.id] || typeof t.url !== "string" || t.url.indexOf("/t/") !== 0) { return; }
      const li = tpl("tpl-recent");
      const a = $("a", li);
      a.href = t.url;
      a.textContent = t.title;
      shelf.appendChild(li);
    });
    const empty = $("#recent-empty");
    if (empty && shelf.children.length) { empty.hidden = true; }
  }
}
