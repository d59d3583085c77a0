/* The rules sheet: a preset sets every option; changes are highlighted. */
import { $, $$ } from "./dom.js";

export function startRulesSheet() {
  var presetData = $("#preset-data");
  if (!presetData) { return; }
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
