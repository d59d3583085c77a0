/* The offline queue's sending: the first kept tap goes to the API, one at a time; its answer
   settles it (stored or refused) or keeps it for another try. The server's log wins: a stale seq
   (409) re-bases the queue after the other phone's events, and the engine then takes or refuses
   each tap; a refused one leaves the queue and is shown as "not saved", never dropped silently. */
import { $ } from "./dom.js";
import { state } from "./state.js";
import { redraw } from "./region.js";
import { refresh } from "./poll.js";
import { renumber } from "./queue-core.js";
import { live, pendingTaps, keepTaps, notes, keepNotes, fill, is, describe, refusalText, mine, isStored, turnMoved } from "./queue-live.js";

function note(kind, text) {
  const list = notes();
  const last = list[list.length - 1];
  if (kind === "conflict" && last && last.kind === "conflict") { list.pop(); }
  list.push({ kind: kind, text: text });
  keepNotes(list);
  state.freshNotes = true;
}

function csrf() {
  const input = $("input[name=csrf_token]", state.region) || $("input[name=csrf_token]");
  return input ? input.value : "";
}

export function flush() {
  if (state.sending || state.busy) { return; }
  const q = pendingTaps();
  if (!q.length) { return; }
  if (navigator.onLine === false) { state.queueStatus = ""; redraw(); return; }
  clearTimeout(state.retryTimer);
  const item = q[0];
  const lost = !!item.lost;
  item.lost = true;  // until an answer comes back, it may be stored
  keepTaps(q);
  state.sending = item;
  state.queueStatus = "";
  redraw();
  fetch(live.cfg.events, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify({ seq: item.seq, event: item.event, saw: item.saw != null ? item.saw : item.seq, skip: !!item.skip })
  }).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (body) {
      state.sending = null;
      answer(item, lost, r.status, body);
    });
  }).catch(function () {
    state.sending = null;
    retry("");
  });
}

function retry(text) {
  state.retryDelay = Math.min(state.retryDelay ? state.retryDelay * 2 : 1000, 30000);
  state.queueStatus = text || (navigator.onLine === false ? "" : live.text.pending_retry);
  redraw();
  clearTimeout(state.retryTimer);
  state.retryTimer = setTimeout(flush, state.retryDelay);
}

// The settles so far: each one's refresh is numbered, so an older one's answer ends none.
let settles = 0;

function settle(item, drop, from) {
  // The item is done with (stored or refused): the rest follow it at the server's length.
  const q = pendingTaps().filter(function (it) { return drop.indexOf(it.id) < 0 && it.id !== item.id; });
  keepTaps(renumber(q, from));
  state.retryDelay = 0;
  state.queueStatus = "";
  // Until the refreshed region is on the page, a tap queues (its seq is the server's now). Only
  // the newest settle's region ends that: an older one's may come back later, one tap short.
  const settle = ++settles;
  state.settling = true;
  state.settledSeq = from;
  refresh().then(function (swapped) {
    if (settle !== settles) { return; }
    state.settling = false;
    if (!swapped) { redraw(); }
    flush();
  });
}

function answer(item, lost, code, body) {
  const err = (body && body.errors && body.errors[0]) || {};
  const q = pendingTaps();
  if (!q.length || q[0].id !== item.id) { redraw(); flush(); return; }  // undone meanwhile
  if (code === 201) { state.waitingDecision = false; return settle(item, [], body.seq); }
  if (code === 409 && err.code === "waiting_decision") { return waitForDecision(q, body); }
  if (code === 409 && err.code === "conflict" && Array.isArray(body.events)) { return rebase(item, lost, q, body); }
  if (code === 422 || code === 409 || code === 404) { return refuse(item, q, code, body); }
  delete item.lost;
  if (code === 400 && err.code === "csrf" && !item.freshToken) {
    item.freshToken = true;  // the page's token went stale: fetch the page again, then resend
    q[0] = item;
    keepTaps(q);
    return refresh().then(flush);
  }
  if (code === 400 || code === 401 || code === 403) {
    state.queueStatus = fill(live.text.pending_stuck, { m: refusalText(body, code) });
    return redraw();  // kept: sent again when the page is opened or the connection returns
  }
  retry("");  // 5xx, 429: the server is in trouble; keep the tap and try again later
}

// A seat's tap after a turn whose player is asked go or stop: kept, first in line, and
// sent again once the answer is on the page (the region's data-decide empties).
function waitForDecision(q, body) {
  state.waitingDecision = true;
  state.queueStatus = fill(live.text.live_waiting_decision, { p: state.region.dataset.decide || "" });
  q[0].waited = true;
  delete q[0].lost;  // refused, not stored: sent again as it is
  keepTaps(renumber(q, body.seq));
  return refresh().then(function () { redraw(); });
}

// The server's log moved on (another phone's events): the taps follow them.
function rebase(item, lost, q, body) {
  if (isStored(body.events, item)) {
    // The server has this very event at its seq: ours (an answer lost), or the same
    // tap recorded by another phone. Either way it is in the log once.
    if (!lost) { note("merged", live.text.already_recorded + ": " + describe(item.event)); }
    return settle(item, [], item.seq + 1);
  }
  const added = body.seq - item.seq;
  // A tap that waited for a go or stop expects the answer before it: no news to show.
  if (!q[0].waited) { note("conflict", added > 0 ? fill(live.text.conflict_added, { n: added }) : live.text.conflict_changed); }
  q.forEach(function (it) { delete it.lost; });
  if (turnMoved(body.events.slice(item.seq)) && !mine(item.event)) { dropTurnMovedOn(q); }
  keepTaps(renumber(q, body.seq));
  return settle({ id: null }, [], body.seq);
}

// Another phone ended the turn these taps were made in: stored now they would land
// in the next player's turn. They are refused, each shown; the rest follow.
function dropTurnMovedOn(q) {
  const stale = [];
  while (q.length && !is("asks", q[0].event) && !is("answers", q[0].event)) { stale.push(q.shift()); }
  if (q.length && is("asks", q[0].event)) { stale.push(q.shift()); }  // the end of that same turn
  stale.forEach(function (it) { note("refused", fill(live.text.live_turn_moved, { e: describe(it.event) })); });
}

// Refused: this tap (or, when the hand is over or gone, every one) is not saved.
function refuse(item, q, code, body) {
  const gone = code !== 422 ? q : [item];
  gone.forEach(function (it) { note("refused", live.text.not_saved + ": " + describe(it.event) + " — " + refusalText(body, code)); });
  return settle(item, gone.map(function (it) { return it.id; }), item.seq);
}
