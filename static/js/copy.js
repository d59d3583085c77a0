/* Copy buttons for share links. */

export function startCopying() {
  document.addEventListener("click", function (ev) {
    const btn = ev.target.closest("[data-copy]");
    if (!btn || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(btn.dataset.copy).then(function () { btn.classList.add("copied"); });
  });
}
