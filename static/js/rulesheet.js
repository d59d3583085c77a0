/* The rules sheet: a preset sets every option; changes are highlighted; typing finds an option. */
import { $, $$ } from "./dom.js";

// Fold case and spaces, so "상한 가", "Payment CAP" find what "상한가", "payment cap" would.
function fold(text) { return (text || "").toLowerCase().replace(/\s+/g, ""); }

/* The search box of a sheet ([data-rule-search]): each row ([data-search], the option's words in
   both languages and its name) shows while it holds what is typed; a group ([data-rule-group])
   with no row left hides; a line says when nothing matches. Sixty options on a phone at a large
   text size are metres of scrolling: 상한가 was 2,250 px down. */
export function startRuleSearch() {
  $$("[data-rule-search]").forEach(function (box) {
    var sheet = box.closest("[data-rule-sheet]") || document;
    var none = $("[data-rule-none]", sheet);
    var filter = function () {
      var q = fold(box.value), shown = 0;
      $$("[data-search]", sheet).forEach(function (row) {
        var hit = !q || fold(row.getAttribute("data-search")).indexOf(q) >= 0;
        row.hidden = !hit;
        if (hit) { shown += 1; }
      });
      $$("[data-rule-group]", sheet).forEach(function (group) {
        group.hidden = !!q && !$("[data-search]:not([hidden])", group);
      });
      if (none) { none.hidden = shown > 0; }
    };
    box.addEventListener("input", filter);
    // Enter in the box would submit the whole new-table form: it only searches
    box.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); } });
    filter();
  });
}

export function startRulesSheet() {
  startRuleSearch();
  var presetData = $("#preset-data");
  if (!presetData) { return; }
  var presets = JSON.parse(presetData.textContent);
  var presetSelect = $("select[name=preset]");
  // An option's value: a checkbox's state, a number, a select's or a radio group's choice.
  var valueOf = function (input) {
    if (input.type === "checkbox") { return input.checked; }
    if (input.type === "number") { return Number(input.value); }
    if (input.type === "radio") {
      var on = $("input[name='" + input.name + "']:checked", input.form);
      return on ? on.value : null;
    }
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
      if (input.type === "checkbox") { input.checked = !!v; }
      else if (input.type === "radio") { input.checked = input.value === v; }
      else { input.value = v; }
    });
    mark();
  });
  document.addEventListener("input", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
  document.addEventListener("change", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
  mark();
  var apply = $("#apply-preset");
  if (apply) { apply.hidden = true; }
}
