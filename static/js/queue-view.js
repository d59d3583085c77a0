/* The offline queue, what the player sees: the pending taps laid over the server's view (the
   cards they take, their log lines, whose turn it will be, the go/stop question), the panel that
   says how the sending goes, the notes of taps refused or merged. Pieces from the page's <template>s. */
import { $, $$, tpl } from "./dom.js";
import { state } from "./state.js";
import { load } from "./store.js";
import { redraw, showOffline } from "./region.js";
import * as core from "./queue-core.js";

// cfg: the page's #live-data; QKEY, NKEY: where this hand's taps and notes are kept.
export function queueView(cfg, QKEY, NKEY) {
  var T = cfg.text, R = cfg.turn;
  function fill(text, values) { return core.fill(text, values); }
  function describe(ev) { return core.describe(cfg, ev); }

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


  function say(text) {
    redraw();
    var p = tpl("tpl-said");
    p.textContent = text;
    ($("#queue", state.region) || $("#pending", state.region)).after(p);
  }

  return { overlay: overlay, markCard: markCard, say: say };
}
