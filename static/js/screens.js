/* Small behaviours of the screens around the hand (issue 13). */

// The chosen file's name beside our own "choose a file" button (the browser's own is hidden).
export function showChosenFileNames() {
  document.addEventListener("change", function (ev) {
    const input = ev.target.closest && ev.target.closest("input.file-input");
    if (!input) { return; }
    const slot = input.closest(".field") && input.closest(".field").querySelector("[data-file-name]");
    if (slot) { slot.textContent = input.files && input.files[0] ? input.files[0].name : ""; }
  });
}

// A hand that ends on the live screen turns into its result in place: open it at its top
// (winner, who pays whom), wherever the page was scrolled during the hand.
export function openResultsAtTop() {
  const region = document.getElementById("region");
  if (!region || !window.MutationObserver) { return; }
  let sawResult = !!document.getElementById("who-pays");
  new MutationObserver(function () {
    const result = !!document.getElementById("who-pays");
    if (result && !sawResult) { window.scrollTo(0, 0); }
    sawResult = result;
  }).observe(region.parentNode, { childList: true, subtree: true });
}
