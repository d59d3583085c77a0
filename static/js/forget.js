/* Forgetting a table also drops the copies of its pages this phone kept for offline use. */

export function startForgetting() {
  document.addEventListener("submit", function (ev) {
    const form = ev.target, action = form.getAttribute("action") || "";
    if (!window.caches || !/\/t\/[^/]+\/forget$/.test(action)) { return; }
    ev.preventDefault();
    const pages = action.replace(/forget$/, "");
    caches.open("sk-pages").then(function (cache) {
      return cache.keys().then(function (keys) {
        return Promise.all(keys.filter(function (r) { return new URL(r.url).pathname.indexOf(pages) === 0; })
          .map(function (r) { return cache.delete(r); }));
      });
    }).catch(function () {}).then(function () { form.submit(); });
  });
}
