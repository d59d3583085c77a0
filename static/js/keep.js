/* The installable app: its service worker, and the kept copy of this page. */
import { $, $$ } from "./dom.js";
import { state } from "./state.js";

let keepTimer = null;
function keepCopy() {
  // The worker keeps the page as it was loaded; taps since have changed the region. Put
  // the server's latest region into the kept copy, so an offline reload shows it.
  if (!window.caches || !state.region) { return; }
  clearTimeout(keepTimer);
  keepTimer = setTimeout(function () {
    const url = location.origin + location.pathname + location.search;
    caches.open("sk-pages").then(function (cache) {
      return cache.match(url).then(function (hit) {
        return hit && hit.text().then(function (text) {
          const doc = new DOMParser().parseFromString(text, "text/html");
          const old = doc.getElementById("region");
          const t = document.createElement("template");
          t.innerHTML = state.served;
          const fresh = t.content.getElementById("region");
          if (!old || !fresh) { return null; }
          $$(".refusal, #held, [data-confirm]", fresh).forEach(function (e) { e.remove(); });
          $$(".flash[role=status]", doc).forEach(function (e) { e.remove(); });
          old.replaceWith(doc.importNode(fresh, true));
          return cache.put(url, new Response("<!doctype html>\n" + doc.documentElement.outerHTML,
            { headers: { "Content-Type": "text/html; charset=utf-8" } }));
        });
      });
    }).catch(function () { /* no copy kept: the next visit keeps one */ });
  }, 500);
}

export function startKeeping() {
  // The worker's URL is on the entry script's tag (a module has no document.currentScript).
  const script = $("script[data-sw]");
  const worker = script && script.dataset.sw;
  if (worker && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(worker).catch(function () { /* the app works without it */ });
    navigator.serviceWorker.ready.then(function (registration) {
      // Loaded while the worker was activating: not claimed with the others (see sw.js).
      if (!navigator.serviceWorker.controller && registration.active) { registration.active.postMessage("claim"); }
    });
  }
  document.addEventListener("sk:swapped", function (ev) { if (!ev.detail.quiet) { keepCopy(); } });
}
