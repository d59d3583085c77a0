/* The offline queue: taps kept on this phone, sent in order when the connection is back.
   Each tap is queued with the log length (seq) it was made against and sent to the API
   one by one. The server's log wins: a stale seq (409) re-bases the queue after the
   other phone's events, and the engine then takes or refuses each tap; a refused one
   leaves the queue and is shown as "not saved", never dropped silently.
   Its pure parts (the log's words, the comparisons, renumbering) are in queue-core.js. */
import { $ } from "./dom.js";
import { state } from "./state.js";
import { load, save } from "./store.js";
import { redraw, showOffline } from "./region.js";
import { refresh } from "./poll.js";
import * as core from "./queue-core.js";
import { queueView } from "./queue-view.js";

var renumber = core.renumber;

export function startQueue() {
  var dataEl = $("#live-data");
  var cfg = null;
  try { cfg = dataEl ? JSON.parse(dataEl.textContent) : null; } catch (e) { cfg = null; }
  if (!cfg || !state.region || !window.fetch) {
    return { on: false, events: function () { return []; }, takes: function () { return false; }, undo: function () { return false; },
             add: function () {}, unanswered: function () {}, flush: function () {},
             mark: function () {}, text: function () { return ""; } };
  }
  // The rules and words come with the page (liveview.offline_data): the engine's turn rules
  // (cfg.turn) and the server's log-line templates (cfg.lines), so none is written here twice.
  var T = cfg.text, R = cfg.turn, QKEY = "sk.q." + cfg.key, NKEY = "sk.notes." + cfg.key;

  function fill(text, values) { return core.fill(text, values); }
  function is(set, ev) { return core.is(R, set, ev); }
  function describe(ev) { return core.describe(cfg, ev); }
  function refusalText(body, code) { return core.refusalText(cfg, body, code); }
  function mine(ev) { return core.mine(state.region.dataset.seat, ev); }
  function isStored(events, item) { return core.isStored(R, state.region.dataset.seat, events, item); }
  function turnMoved(events) { return core.turnMoved(R, events); }
  function note(kind, text) {
    var notes = load(NKEY);
    var last = notes[notes.length - 1];
    if (kind === "conflict" && last && last.kind === "conflict") { notes.pop(); }
    notes.push({ kind: kind, text: text });
    save(NKEY, notes);
    state.freshNotes = true;
  }

  var view = queueView(cfg, QKEY, NKEY);  // what the player sees (queue-view.js)
  var overlay = view.overlay, markCard = view.markCard, say = view.say;

  document.addEventListener("sk:swapped", overlay);
  document.addEventListener("sk:swapped", function (ev) {
    if (ev.detail.quiet) { return; }
    var held = $("#held", state.region);
    if (held) {  // the server held a seat's tap until a go or stop: it waits here, in order
      var h = JSON.parse(held.getAttribute("data-held"));
      held.remove();
      state.waitingDecision = true;
      add(h.event, h.skip);
    } else if (state.waitingDecision && !state.region.dataset.decide) { state.waitingDecision = false; state.queueStatus = ""; flush(); }
  });

  // -- sending ------------------------------------------------------------------------
  function takes() {
    // Once one tap waits, every later one queues behind it: the order is the log's.
    return load(QKEY).length > 0 || state.sending !== null || state.busy || state.settling || navigator.onLine === false;
  }

  function add(ev, skip) {
    var q = load(QKEY);
    // Behind the post on its way (its answer may already be on the page): after it.
    var base = q.length ? q[q.length - 1].seq + 1 : (state.busy && state.nextSeq !== null ? state.nextSeq
      : state.settling ? state.settledSeq : parseInt(state.region.dataset.seq || "0", 10));
    // saw: the log length when tapped (a rebase moves seq, not saw): a seat's tap made in its own
    // turn stays in it even if another phone ended that turn meanwhile.
    var item = { id: newId(), seq: base, saw: base, event: ev };
    if (skip) { item.skip = true; }  // a seat's tap confirmed to pass the turns between
    q.push(item);
    save(QKEY, q);
    redraw();
    flush();
  }

  // An id of its own for each tap, even two made in one millisecond (a turn's end and its go):
  // a tap is settled, and dropped from the queue, by its id.
  function newId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 7); }

  function unanswered(tap) {
    // A post that got no answer may have been stored: its taps go first (core.putBack).
    save(QKEY, core.putBack(load(QKEY), { id: newId(), seq: tap.seq, event: tap.event }));
    redraw();
  }

  function undo() {
    var q = load(QKEY);
    if (!q.length) {
      if (navigator.onLine !== false) { return false; }
      say(T.undo_needs_network);
      return true;
    }
    var last = q[q.length - 1];
    if (state.sending && state.sending.id === last.id) { say(T.undo_wait); return true; }
    q.pop();
    save(QKEY, q);
    redraw();
    return true;
  }

  function csrf() {
    var input = $("input[name=csrf_token]", state.region) || $("input[name=csrf_token]");
    return input ? input.value : "";
  }

  function flush() {
    if (state.sending || state.busy) { return; }
    var q = load(QKEY);
    if (!q.length) { return; }
    if (navigator.onLine === false) { state.queueStatus = ""; redraw(); return; }
    clearTimeout(state.retryTimer);
    var item = q[0];
    var lost = !!item.lost;
    item.lost = true;  // until an answer comes back, it may be stored
    save(QKEY, q);
    state.sending = item;
    state.queueStatus = "";
    redraw();
    fetch(cfg.events, {
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
    state.queueStatus = text || (navigator.onLine === false ? "" : T.pending_retry);
    redraw();
    clearTimeout(state.retryTimer);
    state.retryTimer = setTimeout(flush, state.retryDelay);
  }

  function settle(item, drop, from) {
    // The item is done with (stored or refused): the rest follow it at the server's length.
    var q = load(QKEY).filter(function (it) { return drop.indexOf(it.id) < 0 && it.id !== item.id; });
    save(QKEY, renumber(q, from));
    state.retryDelay = 0;
    state.queueStatus = "";
    // Until the refreshed region is on the page, a tap queues (its seq is the server's now).
    state.settling = true;
    state.settledSeq = from;
    refresh().then(function (swapped) { state.settling = false; if (!swapped) { redraw(); } flush(); });
  }

  function answer(item, lost, code, body) {
    var err = (body && body.errors && body.errors[0]) || {};
    var q = load(QKEY);
    if (!q.length || q[0].id !== item.id) { redraw(); flush(); return; }  // undone meanwhile
    if (code === 201) { state.waitingDecision = false; return settle(item, [], body.seq); }
    if (code === 409 && err.code === "waiting_decision") {
      // A seat's tap after a turn whose player is asked go or stop: kept, first in line, and
      // sent again once the answer is on the page (the region's data-decide empties).
      state.waitingDecision = true;
      state.queueStatus = fill(T.live_waiting_decision, { p: state.region.dataset.decide || "" });
      q[0].waited = true;
      delete q[0].lost;  // refused, not stored: sent again as it is
      save(QKEY, renumber(q, body.seq));
      return refresh().then(function () { redraw(); });
    }
    if (code === 409 && err.code === "conflict" && Array.isArray(body.events)) {
      if (isStored(body.events, item)) {
        // The server has this very event at its seq: ours (an answer lost), or the same
        // tap recorded by another phone. Either way it is in the log once.
        if (!lost) { note("merged", T.already_recorded + ": " + describe(item.event)); }
        return settle(item, [], item.seq + 1);
      }
      var added = body.seq - item.seq;
      // A tap that waited for a go or stop expects the answer before it: no news to show.
      if (!q[0].waited) { note("conflict", added > 0 ? fill(T.conflict_added, { n: added }) : T.conflict_changed); }
      q.forEach(function (it) { delete it.lost; });
      if (turnMoved(body.events.slice(item.seq)) && !mine(item.event)) {
        // Another phone ended the turn these taps were made in: stored now they would land
        // in the next player's turn. They are refused, each shown; the rest follow.
        var stale = [];
        while (q.length && !is("asks", q[0].event) && !is("answers", q[0].event)) { stale.push(q.shift()); }
        if (q.length && is("asks", q[0].event)) { stale.push(q.shift()); }  // the end of that same turn
        stale.forEach(function (it) { note("refused", fill(T.live_turn_moved, { e: describe(it.event) })); });
      }
      save(QKEY, renumber(q, body.seq));
      return settle({ id: null }, [], body.seq);
    }
    if (code === 422 || code === 409 || code === 404) {
      // Refused: this tap (or, when the hand is over or gone, every one) is not saved.
      var gone = code !== 422 ? q : [item];
      gone.forEach(function (it) { note("refused", T.not_saved + ": " + describe(it.event) + " — " + refusalText(body, code)); });
      return settle(item, gone.map(function (it) { return it.id; }), item.seq);
    }
    delete item.lost;
    if (code === 400 && err.code === "csrf" && !item.freshToken) {
      item.freshToken = true;  // the page's token went stale: fetch the page again, then resend
      q[0] = item;
      save(QKEY, q);
      return refresh().then(flush);
    }
    if (code === 400 || code === 401 || code === 403) {
      state.queueStatus = fill(T.pending_stuck, { m: refusalText(body, code) });
      return redraw();  // kept: sent again when the page is opened or the connection returns
    }
    retry("");  // 5xx, 429: the server is in trouble; keep the tap and try again later
  }

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-queue-event], [data-dismiss-notes]");
    if (!b || !state.region.contains(b)) { return; }
    if (b.hasAttribute("data-dismiss-notes")) { save(NKEY, []); redraw(); return; }
    add(JSON.parse(b.getAttribute("data-queue-event")));
  });
  window.addEventListener("online", function () { state.retryDelay = 0; showOffline(false); flush(); });
  window.addEventListener("offline", function () { showOffline(true); redraw(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
  overlay();
  flush();
  return { on: true, key: cfg.key, events: function (data) { return core.eventsOf(data, cfg.form); }, takes: takes, undo: undo, add: add, unanswered: unanswered, flush: flush,
           mark: markCard, text: function (k) { return T[k] || ""; } };
}
