/* Small behaviours of the screens around the hand (issue 13). */
(function () {
  "use strict";
  // The chosen file's name beside our own "choose a file" button (the browser's own is hidden).
  document.addEventListener("change", function (ev) {
    var input = ev.target.closest && ev.target.closest("input.file-input");
    if (!input) { return; }
    var slot = input.closest(".field") && input.closest(".field").querySelector("[data-file-name]");
    if (slot) { slot.textContent = input.files && input.files[0] ? input.files[0].name : ""; }
  });
}());
