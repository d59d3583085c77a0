/* Quick entry: one card picker for every player, and the payment previewed as the form changes.
 *
 * Without the script the page is a plain form: each player has their own picker and the
 * Preview button asks the engine. With it, the per-player pickers are hidden and one picker
 * gives a tapped card to the player last touched (their name, junk or go chips), or to the
 * player chosen in "Cards of". The hidden checkboxes stay the form's data, so what is posted
 * is the same either way.
 */
(function () {
  "use strict";
  var form = document.querySelector("form.quick");
  if (!form) { return; }
  var picker = form.querySelector(".one-picker");
  var seats = Array.prototype.slice.call(form.querySelectorAll("section.qp"));
  var active = 0;

  function box(seat, code) {
    return form.querySelector("input[name='entries-" + seat + "-cards'][value='" + code + "']");
  }
  function owner(code) {
    for (var i = 0; i < seats.length; i++) {
      var b = box(i, code);
      if (b && b.checked) { return i; }
    }
    return -1;
  }
  function colour(seat) {
    var m = /\bp\d\b/.exec(seats[seat].className);
    return m ? m[0] : "";
  }
  function setActive(i) {
    active = i;
    seats.forEach(function (s, j) { s.classList.toggle("active", j === i); });
    picker.querySelectorAll("[data-owner]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.owner) === i));
    });
  }
  function paint() {
    var owned = seats.map(function () { return []; });
    picker.querySelectorAll("[data-code]").forEach(function (card) {
      var o = owner(card.dataset.code);
      card.className = card.className.replace(/\s*\b(taken|p\d)\b/g, "");
      card.querySelector(".owner").textContent = o < 0 ? "" : (seats[o].dataset.name || "?").charAt(0).toUpperCase();
      if (o >= 0) {
        card.className += " taken " + colour(o);
        owned[o].push(card.title);
      }
      card.setAttribute("aria-pressed", String(o >= 0));
    });
    owned.forEach(function (names, i) {
      var slot = seats[i].querySelector("[data-owned]");
      if (slot) { slot.textContent = names.join(", "); }
    });
  }

  if (picker) {
    document.documentElement.classList.add("quick-js");
    picker.hidden = false;
    var winner = form.querySelector("input[name=winner]:checked");
    setActive(winner ? seats.indexOf(winner.closest("section.qp")) : 0);
    paint();
    picker.addEventListener("click", function (ev) {
      var who = ev.target.closest("[data-owner]");
      if (who) { setActive(Number(who.dataset.owner)); return; }
      var card = ev.target.closest("[data-code]");
      if (!card) { return; }
      var code = card.dataset.code, o = owner(code);
      if (o >= 0) { box(o, code).checked = false; }
      if (o !== active) { box(active, code).checked = true; }
      paint();
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
    seats.forEach(function (seat, i) {
      seat.addEventListener("click", function (ev) {
        if (ev.target.closest(".qp-head, .stepper")) { setActive(i); }
      });
    });
  }

  // -- the payment, previewed by the engine as the form changes --------------------
  if (!window.fetch) { return; }
  var timer = null;
  function preview() {
    var data = new FormData(form);
    data.set("action", "preview");
    fetch(form.getAttribute("action"), { method: "POST", body: data, credentials: "same-origin", headers: { "X-Partial": "1" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var t = document.createElement("template");
        t.innerHTML = html;
        var fresh = t.content.getElementById("preview");
        var old = document.getElementById("preview");
        if (!fresh || !old) { return; }
        var wasOpen = old.querySelector("details[open]");
        var details = fresh.querySelector("details");
        if (wasOpen && details) { details.open = true; }
        old.replaceWith(fresh);
      }).catch(function () { /* keep the last preview */ });
  }
  form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(preview, 200); });
  form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(preview, 400); });
  var btn = form.querySelector(".preview-btn");
  if (btn) { btn.hidden = true; }
}());
