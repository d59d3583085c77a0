/* Quick entry: one card picker for every player, and the payment previewed as the form changes.
 *
 * Without the script the page is a plain form: each player has their own picker and the
 * Preview button asks the engine. With it, the per-player pickers are hidden and one picker
 * gives a tapped card to the player last touched (their name, junk or go chips), or to the
 * player chosen in "Cards of". The hidden checkboxes stay the form's data, so what is posted
 * is the same either way.
 */
import { startPreview } from "./quick-preview.js";

// The page's one quick form: its players' sections (seats), the one picker, the player it serves.
const quick = { form: null, picker: null, seats: [], active: 0 };

function box(seat, code) {
  return quick.form.querySelector("input[name='entries-" + seat + "-cards'][value='" + code + "']");
}
function owner(code) {
  for (let i = 0; i < quick.seats.length; i++) {
    const b = box(i, code);
    if (b && b.checked) { return i; }
  }
  return -1;
}
function colour(seat) {
  const m = /\bp\d\b/.exec(quick.seats[seat].className);
  return m ? m[0] : "";
}
function setActive(i) {
  quick.active = i;
  quick.seats.forEach(function (s, j) { s.classList.toggle("active", j === i); });
  quick.picker.querySelectorAll("[data-owner]").forEach(function (b) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.owner) === i));
  });
}
function paint() {
  const seats = quick.seats;
  const owned = seats.map(function () { return []; });
  quick.picker.querySelectorAll("[data-code]").forEach(function (card) {
    const o = owner(card.dataset.code);
    card.className = card.className.replace(/\s*\b(taken|p\d)\b/g, "");
    card.querySelector(".owner").textContent = o < 0 ? "" : (seats[o].dataset.name || "?").charAt(0).toUpperCase();
    if (o >= 0) {
      card.className += " taken " + colour(o);
      owned[o].push(card.title);
    }
    card.setAttribute("aria-pressed", String(o >= 0));
  });
  owned.forEach(function (names, i) {
    const slot = seats[i].querySelector("[data-owned]");
    if (slot) { slot.textContent = names.join(", "); }
  });
}

function tap(ev) {
  const who = ev.target.closest("[data-owner]");
  if (who) { setActive(Number(who.dataset.owner)); return; }
  const card = ev.target.closest("[data-code]");
  if (!card) { return; }
  const code = card.dataset.code, o = owner(code);
  if (o >= 0) { box(o, code).checked = false; }
  if (o !== quick.active) { box(quick.active, code).checked = true; }
  paint();
  quick.form.dispatchEvent(new Event("change", { bubbles: true }));
}

function startOnePicker(form, picker) {
  quick.form = form;
  quick.picker = picker;
  quick.seats = Array.prototype.slice.call(form.querySelectorAll("section.qp"));
  document.documentElement.classList.add("quick-js");
  picker.hidden = false;
  const winner = form.querySelector("input[name=winner]:checked");
  setActive(winner ? quick.seats.indexOf(winner.closest("section.qp")) : 0);
  paint();
  picker.addEventListener("click", tap);
  quick.seats.forEach(function (seat, i) {
    seat.addEventListener("click", function (ev) {
      if (ev.target.closest(".qp-head, .stepper")) { setActive(i); }
    });
  });
}

export function startQuickEntry() {
  const form = document.querySelector("form.quick");
  if (!form) { return; }
  const picker = form.querySelector(".one-picker");
  if (picker) { startOnePicker(form, picker); }
  if (window.fetch) { startPreview(form); }
}
