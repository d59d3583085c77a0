/* The offline queue: taps kept on this phone, sent in order when the connection is back.
   Each tap is queued with the log length (seq) it was made against and sent to the API
   one by one. The server's log wins: a stale seq (409) re-bases the queue after the
   other phone's events, and the engine then takes or refuses each tap; a refused one
   leaves the queue and is shown as "not saved", never dropped silently.
   Its pure parts (the log's words, the comparisons, renumbering) are in queue-core.js. */
import { $, $$, tpl } from "./dom.js";
import { state } from "./state.js";
import { load, save } from "./store.js";
import { redraw, showOffline } from "./region.js";
import { refresh } from "./poll.js";
import * as core from "./queue-core.js";

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
  function own(map, key) { return core.own(map, key); }
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

  // -- what the player sees: the pending taps laid over the server's view -------------
  function overlay() {
    var q = load(QKEY), notes = load(NKEY);
    var offline = navigator.onLine === false;
    if (offline) { showOffline(true); }
    var undoForm = $("form[data-undo]", state.region);
    if (undoForm && q.length) { undoForm.hidden = false; }
    var bar = $(".turn-bar", state.region);
    if (!q.length && !notes.length && !(offline && bar)) { return; }
    var anchor = bar || $("#pending", state.region);
    // On the live page the panels go into the 먹은 패 sheet (the bar's badge opens it): in the
    // page they pushed the cards down.
    var sheetHead = $("#piles .sheet-head", state.region);

    if (notes.length) {
      var box = tpl("tpl-notes");
      var ul = $("ul", box);
      notes.forEach(function (n) { var li = tpl("tpl-note"); li.className = n.kind; li.textContent = n.text; ul.appendChild(li); });
      anchor.after(box);
      anchor = box;
      if (bar) {
        var warn = tpl("tpl-notes-count");
        warn.append(String(notes.length));
        bar.firstElementChild.prepend(warn, " ");
      }
      if (state.freshNotes && box.getBoundingClientRect().top < 0) { box.scrollIntoView({ block: "start" }); }
      state.freshNotes = false;
    }
    if (!q.length && !(offline && bar)) { return; }
    if (!offline && !state.queueStatus) {
      // Online, the taps merely wait for the one on its way: no panel, the cards show it.
      layOver(q, null);
      if (bar) { var count = tpl("tpl-pending-count"); count.prepend(String(q.length)); bar.firstElementChild.prepend(count, " "); }
      return;
    }

    var panel = tpl("tpl-queue");
    $(".pending-count", panel).textContent = String(q.length);
    var said = state.queueStatus || (offline ? T.pending_offline : (state.sending ? T.pending_sending : ""));
    if (said) { var line = tpl("tpl-queue-state"); line.textContent = said; panel.appendChild(line); }
    if (q.length) {
      var list = tpl("tpl-pending-list");
      list.open = state.listOpen;
      list.addEventListener("toggle", function () { state.listOpen = list.open; });
      $("summary", list).textContent = describe(q[q.length - 1].event) + (q.length > 1 ? " (+" + (q.length - 1) + ")" : "");
      var ol = $("ol", list);
      q.forEach(function (it) {
        var li = tpl("tpl-pending-line");
        if (state.sending && it.id === state.sending.id) { li.classList.add("sending"); }
        li.prepend(describe(it.event));
        ol.appendChild(li);
      });
      panel.appendChild(list);
    }
    (sheetHead || anchor).after(panel);
    if (q.length) { layOver(q, panel); }
    if (bar && q.length) {
      var badge = tpl("tpl-pending-link");
      badge.prepend(String(q.length));
      bar.firstElementChild.prepend(badge, " ");
    }
  }

  function layOver(q, panel) {
    // Cards taken by pending captures, the pending log lines, whose turn it will be (predict(),
    // from the engine's turn rules and the scores' data-may-decide that the page carries).
    var region = state.region;
    var mayDecide = $$(".scores [data-may-decide]", region).map(function (s) { return s.dataset.player; });
    var p = core.predict(R, q.map(function (it) { return it.event; }), region.dataset.current || null,
      region.dataset.decide || null, mayDecide);
    var current = p.current, deciding = p.deciding, over = p.over, ask = null;
    var log = $("#log ol", region);
    q.forEach(function (it) {
      var e = it.event;
      if (e.cards) { e.cards.forEach(function (c) { markCard(c, e.player); }); }  // a capture: its player's
      if (log) {
        var li = tpl("tpl-pending-line");
        li.prepend(describe(e));
        log.insertBefore(li, log.firstChild);
      }
    });
    if (panel) { panel.appendChild(tpl(over ? "tpl-pending-over" : "tpl-pending-scores")); }
    var bar = $(".turn-actions", state.region);
    if (p.ask) {
      ask = tpl("tpl-ask");  // a button for each answer the engine takes (cfg.turn.answers)
      $(".muted", ask).textContent = fill(T.pending_ask, { p: p.ask });
      $$("[data-answer]", ask).forEach(function (b) {
        b.setAttribute("data-queue-event", JSON.stringify({ type: b.dataset.answer, player: p.ask }));
      });
    }
    var prompt = $(".prompt", state.region);
    if (prompt && !deciding && state.region.dataset.decide) {
      prompt.hidden = true;
      var backdrop = $(".prompt-backdrop", state.region);
      if (backdrop) { backdrop.hidden = true; }
    }
    var endTurn = $("form[data-end-turn-form]", state.region);
    // Where the thumb is: on the End turn bar that was tapped.
    if (ask) { if (bar) { bar.prepend(ask); } else if (panel) { panel.appendChild(ask); } }
    if (current && current !== state.region.dataset.current) {
      state.region.dataset.now = current;  // the card and event taps are for the player on turn now
      $$("form[data-decide-form]", state.region).forEach(function (f) { f.hidden = true; });
      if (endTurn && !over) {
        endTurn.hidden = !!deciding;
        endTurn.querySelector("input[name=player]").value = current;
        endTurn.querySelector("button").textContent = fill(T.live_end_turn, { p: current });
      }
      $$(".scores .badge.turn", state.region).forEach(function (b) { b.remove(); });
      $$(".scores .score", state.region).forEach(function (s) { s.classList.toggle("on-turn", s.dataset.player === current); });
      var who = $(".scores [data-player='" + CSS.escape(current) + "'] .nm", state.region);
      if (who) { who.prepend(tpl("tpl-turn-badge")); }
      var turn = $(".turn-bar .now", state.region);
      if (turn) { var next = tpl("tpl-turn-next"); $("span", next).textContent = current; turn.append(" ", next); }
    }
    if (over && endTurn) { endTurn.hidden = true; }
  }

  function markCard(code, player) {
    // A pending capture: the card shows taken (dashed) at once, the points wait for the server.
    var card = $(".picker [data-card='" + CSS.escape(code) + "']");
    var score = $(".scores [data-player='" + CSS.escape(player || "") + "']", state.region);
    if (!card || card.disabled && !card.classList.contains("pend")) { return; }
    var seat = score ? (score.className.match(/\bp\d\b/) || [""])[0] : "";
    card.disabled = true;
    card.classList.add("taken", "pend");
    if (seat) { card.classList.add(seat); }
    var label = $(".owner", card);
    if (label) { label.textContent = player || "?"; }
    var points = score && $("[data-points]", score);
    if (points) { points.classList.add("stale"); }
  }

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
    var item = { id: Date.now().toString(36) + Math.random().toString(36).slice(2, 7), seq: base, saw: base, event: ev };
    if (skip) { item.skip = true; }  // a seat's tap confirmed to pass the turns between
    q.push(item);
    save(QKEY, q);
    redraw();
    flush();
  }

  function unanswered(tap) {
    // A post that got no answer may have been stored: it goes first, marked so the
    // server's log can tell (the same event at its seq is this one).
    var q = load(QKEY);
    q.unshift({ id: Date.now().toString(36), seq: tap.seq, event: tap.event, lost: true });
    save(QKEY, renumber(q, tap.seq));
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

  function say(text) {
    redraw();
    var p = tpl("tpl-said");
    p.textContent = text;
    ($("#queue", state.region) || $("#pending", state.region)).after(p);
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
