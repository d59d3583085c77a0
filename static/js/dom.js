/* Small DOM helpers shared by the modules. */

export function $(sel, root) { return (root || document).querySelector(sel); }
export function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

// A copy of a server-rendered <template id="..."> (its words are the catalogue's): its first element.
export function tpl(id) {
  const t = document.getElementById(id);
  return t.content.firstElementChild.cloneNode(true);
}
