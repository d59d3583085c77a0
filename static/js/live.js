/* Swap and post: a form with data-live is posted in the background and its answer (the
   region's partial) replaces the region; the sheets, the player chips and the confirmation.
   A seat-bound phone's taps are its player's (data-seat); seats.js follows its table. */
import { $$ } from "./dom.js";
import { state } from "./state.js";
import { swap, toast, setBusy, showOffline, closeSheets, markOwners, markActor, older, redraw } from "./region.js";

// The card of the post on its way: a redraw before its answer (the next tap queued) draws the region
// the server sent last, which lacks it; it stays shown taken until the answer says.
let posting = null;

// tap: the event the form makes, queued if the post never reaches the server
function post(url, data, tap, say) {
  const queue = state.queue;
  setBusy(true);
  return fetch(url, {
    method: "POST", body: data, credentials: "same-origin",
    headers: { "X-Partial": "1", "Accept": "text/html" }
  }).then(function (r) {
    posting = null;  // the answer's region (or the queue) says from now on
    // 503/507: the database could not store it (nothing was): the queue keeps the tap and retries.
    if (tap && (r.status === 503 || r.status === 507)) { tap.forEach(function (t) { queue.unanswered(t); }); return; }
    return r.text().then(function (text) {
      // A plain "stored" answer older than the page (another phone's newer change came first, by a
      // push or a poll) holds nothing the page lacks: the page stays newer. One that asks or says
      // something is shown, and the newer version fetched again after it (sk:idle).
      if (r.ok && older(text) && !/class="refusal"|id="held"|data-confirm|data-undone/.test(text)) { redraw(); return; }
      if (!swap(text)) { window.location.reload(); return; }
      if (r.ok && say && state.region.hasAttribute("data-live")) { toast(say(state.region.dataset.last || "")); }
    });
  }).catch(function () {
    posting = null;
    showOffline(true);
    if (tap) { tap.forEach(function (t) { queue.unanswered(t); }); }
  }).then(function () { setBusy(false); queue.flush(); });
}

export function startLive() {
  document.addEventListener("toggle", function (ev) {
    const d = ev.target;
    if (d.matches && d.matches("details.sheet") && d.open) { closeSheets(d); }
  }, true);
  document.addEventListener("click", function (ev) {
    const region = state.region;
    const close = ev.target.closest("[data-close-sheet]");
    if (close) { closeSheets(null); return; }
    const opens = ev.target.closest("[data-open-piles]");
    if (opens) { const piles = document.getElementById("piles"); if (piles) { piles.open = true; } }
    if (ev.target.closest("[data-close-confirm]")) { $$("[data-confirm]").forEach(function (e) { e.remove(); }); return; }
    const chip = ev.target.closest("[data-actor]");
    if (chip && region && region.contains(chip)) {
      state.actor = chip.dataset.actor === region.dataset.current ? null : chip.dataset.actor;
      markActor();
      toast(chip.title);
    }
  });

  document.addEventListener("submit", function (ev) {
    const form = ev.target, region = state.region, queue = state.queue;
    if (!form.matches("form[data-live]") || !window.fetch || !region) { return; }
    ev.preventDefault();
    const data = new FormData(form, ev.submitter || undefined);
    // The controls outside the region were drawn once: the log length and the player on
    // turn are the region's, as of now.
    data.set("seq", region.dataset.seq || "0");
    // A seat-bound phone taps for its own player (the turn before passes on the server).
    if (form.hasAttribute("data-actor")) { data.set("player", state.actor || region.dataset.seat || region.dataset.now || region.dataset.current || ""); }
    closeSheets(null);
    const undoing = form.hasAttribute("data-undo");
    const events = undoing || form.hasAttribute("data-give") ? [] : queue.events(data);  // as the server will read the form
    const card = ev.submitter && ev.submitter.dataset.card;  // a card of the picker: taken by the player
    if (card) { queue.mark(card, data.get("player")); }  // shown taken at once; the answer confirms
    if (undoing && queue.undo()) { return; }
    // Naming the junk given replaces the last stored event: only with the server's log in view.
    const giving = form.hasAttribute("data-give");
    if (giving && queue.takes()) { return; }
    if (!undoing && queue.takes()) { events.forEach(function (e) { queue.add(e, data.get("skip") === "1"); }); return; }
    if (state.busy) { return; }
    const seq = parseInt(data.get("seq"), 10);
    state.nextSeq = undoing ? null : seq + events.length;  // what the log will be once this post is stored
    const tap = undoing || giving || !queue.on ? null : events.map(function (e, i) { return { seq: seq + i, event: e }; });
    // An undo's answer names what it took back (the seated phone's own event may not be the last).
    const say = card ? null : function (last) { return undoing ? (state.region.dataset.undone || queue.text("live_undone")) : last; };
    posting = card ? { card: card, player: data.get("player") } : null;
    post(form.getAttribute("action"), data, tap, say);
  });
  document.addEventListener("sk:swapped", function () { if (posting) { state.queue.mark(posting.card, posting.player); } });
  markOwners();
  markActor();
}
