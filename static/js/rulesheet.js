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
    const sheet = box.closest("[data-rule-sheet]") || document;
    const none = $("[data-rule-none]", sheet);
    const filter = function () {
      const q = fold(box.value);
      let shown = 0;
      $$("[data-search]", sheet).forEach(function (row) {
        const hit = !q || fold(row.getAttribute("data-search")).indexOf(q) >= 0;
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
  const presetData = $("#preset-data");
  if (!presetData) { return; }
  const presets = JSON.parse(presetData.textContent);
  const presetSelect = $("select[name=preset]");
  // An option's value: a checkbox's state, a number, a select's or a radio group's choice.
  const valueOf = function (input) {
    if (input.type === "checkbox") { return input.checked; }
    if (input.type === "number") { return Number(input.value); }
    if (input.type === "radio") {
      const on = $("input[name='" + input.name + "']:checked", input.form);
      return on ? on.value : null;
    }
    return input.value;
  };
  const mark = function () {
    const base = presets[presetSelect.value] || {};
    $$(".opt [name^=opt_]").forEach(function (input) {
      const name = input.name.slice(4);
      input.closest(".opt").classList.toggle("changed", valueOf(input) !== base[name]);
    });
  };
  presetSelect.addEventListener("change", function () {
    const base = presets[presetSelect.value] || {};
    $$(".opt [name^=opt_]").forEach(function (input) {
      const v = base[input.name.slice(4)];
      if (input.type === "checkbox") { input.checked = !!v; }
      else if (input.type === "radio") { input.checked = input.value === v; }
      else { input.value = v; }
    });
    mark();
  });
  document.addEventListener("input", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
  document.addEventListener("change", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
  mark();
  const apply = $("#apply-preset");
  if (apply) { apply.hidden = true; }
}
