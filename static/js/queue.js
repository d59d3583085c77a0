/* The offline queue: taps kept on this phone, sent in order when the connection is back.
   Each tap is queued with the log length (seq) it was made against and sent to the API
   one by one (queue-send.js). Its pure parts (the log's words, the comparisons, renumbering)
   are in queue-core.js, the page's rules and words in queue-live.js, what the player sees in
   queue-view.js. This file is what live.js asks of it: does a tap queue, add it, undo one. */
import { $ } from "./dom.js";
import { state } from "./state.js";
import { redraw, showOffline } from "./region.js";
import { eventsOf, putBack } from "./queue-core.js";
import { live, readLiveData, pendingTaps, keepTaps, keepNotes } from "./queue-live.js";
import { flush } from "./queue-send.js";
import { overlay, say } from "./queue-view.js";
import { markCard } from "./queue-pending.js";

// The page has no live hand (or no fetch): a queue that takes nothing.
const STAND_IN = {
  on: false, events: function () { return []; }, takes: function () { return false; }, undo: function () { return false; },
  add: function () {}, unanswered: function () {}, flush: function () {},
  mark: function () {}, text: function () { return ""; }
};

function takes() {
  // Once one tap waits, every later one queues behind it: the order is the log's.
  return pendingTaps().length > 0 || state.sending !== null || state.busy || state.settling || navigator.onLine === false;
}

// An id of its own for each tap, even two made in one millisecond (a turn's end and its go):
// a tap is settled, and dropped from the queue, by its id.
function newId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 7); }

function add(ev, skip) {
  const q = pendingTaps();
  // Behind the post on its way (its answer may already be on the page): after it.
  const base = q.length ? q[q.length - 1].seq + 1 : (state.busy && state.nextSeq !== null ? state.nextSeq
    : state.settling ? state.settledSeq : parseInt(state.region.dataset.seq || "0", 10));
  // saw: the log length when tapped (a rebase moves seq, not saw): a seat's tap made in its own
  // turn stays in it even if another phone ended that turn meanwhile.
  const item = { id: newId(), seq: base, saw: base, event: ev };
  if (skip) { item.skip = true; }  // a seat's tap confirmed to pass the turns between
  q.push(item);
  keepTaps(q);
  redraw();
  flush();
}

function unanswered(tap) {
  // A post that got no answer may have been stored: its taps go first (queue-core's putBack).
  keepTaps(putBack(pendingTaps(), { id: newId(), seq: tap.seq, event: tap.event }));
  redraw();
}

function undo() {
  const q = pendingTaps();
  if (!q.length) {
    if (navigator.onLine !== false) { return false; }
    say(live.text.undo_needs_network);
    return true;
  }
  const last = q[q.length - 1];
  if (state.sending && state.sending.id === last.id) { say(live.text.undo_wait); return true; }
  q.pop();
  keepTaps(q);
  redraw();
  return true;
}

// The server held a seat's tap until a go or stop: it waits here, in order.
function takeHeldTap(ev) {
  if (ev.detail.quiet) { return; }
  const held = $("#held", state.region);
  if (held) {
    const h = JSON.parse(held.getAttribute("data-held"));
    held.remove();
    state.waitingDecision = true;
    add(h.event, h.skip);
  } else if (state.waitingDecision && !state.region.dataset.decide) { state.waitingDecision = false; state.queueStatus = ""; flush(); }
}

function listen() {
  document.addEventListener("sk:swapped", overlay);
  document.addEventListener("sk:swapped", takeHeldTap);
  document.addEventListener("click", function (ev) {
    const b = ev.target.closest("[data-queue-event], [data-dismiss-notes]");
    if (!b || !state.region.contains(b)) { return; }
    if (b.hasAttribute("data-dismiss-notes")) { keepNotes([]); redraw(); return; }
    add(JSON.parse(b.getAttribute("data-queue-event")));
  });
  window.addEventListener("online", function () { state.retryDelay = 0; showOffline(false); flush(); });
  window.addEventListener("offline", function () { showOffline(true); redraw(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
}

export function startQueue() {
  if (!readLiveData() || !state.region || !window.fetch) { return STAND_IN; }
  listen();
  overlay();
  flush();
  return {
    on: true, key: live.cfg.key, events: function (data) { return eventsOf(data, live.cfg.form); },
    takes: takes, undo: undo, add: add, unanswered: unanswered, flush: flush,
    mark: markCard, text: function (k) { return live.text[k] || ""; }
  };
}
