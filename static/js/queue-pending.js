/* The pending taps laid over the server's view: the cards they take, their log lines, whose turn
   it will be and the go/stop question (queue-core's predict(), from the engine's turn rules and
   the scores' data-may-decide that the page carries). Pieces from the page's <template>s. */
import { $, $$, tpl } from "./dom.js";
import { state } from "./state.js";
import { predict } from "./queue-core.js";
import { live, fill, describe } from "./queue-live.js";

export function markCard(code, player) {
  // A pending capture: the card shows taken (dashed) at once, the points wait for the server.
  const card = $(".picker [data-card='" + CSS.escape(code) + "']");
  const score = $(".scores [data-player='" + CSS.escape(player || "") + "']", state.region);
  if (!card || card.disabled && !card.classList.contains("pend")) { return; }
  const seat = score ? (score.className.match(/\bp\d\b/) || [""])[0] : "";
  card.disabled = true;
  card.classList.add("taken", "pend");
  if (seat) { card.classList.add(seat); }
  const label = $(".owner", card);
  if (label) { label.textContent = player || "?"; }
  const points = score && $("[data-points]", score);
  if (points) { points.classList.add("stale"); }
}

// Cards taken by pending captures (their player's), and the pending lines atop the log.
function showTaps(q, region) {
  const log = $("#log ol", region);
  q.forEach(function (it) {
    const e = it.event;
    if (e.cards) { e.cards.forEach(function (c) { markCard(c, e.player); }); }
    if (log) {
      const li = tpl("tpl-pending-line");
      li.prepend(describe(e));
      log.insertBefore(li, log.firstChild);
    }
  });
}

// A button for each answer the engine takes (cfg.turn.answers), for the player asked.
function askOf(player) {
  const ask = tpl("tpl-ask");
  $(".muted", ask).textContent = fill(live.text.pending_ask, { p: player });
  $$("[data-answer]", ask).forEach(function (b) {
    b.setAttribute("data-queue-event", JSON.stringify({ type: b.dataset.answer, player: player }));
  });
  return ask;
}

// The server's go-or-stop question, answered by a pending tap: hidden.
function hideAnsweredPrompt(deciding) {
  const prompt = $(".prompt", state.region);
  if (prompt && !deciding && state.region.dataset.decide) {
    prompt.hidden = true;
    const backdrop = $(".prompt-backdrop", state.region);
    if (backdrop) { backdrop.hidden = true; }
  }
}

// The turn passes to current once the pending taps are stored: the page says so now.
function showTurn(current, deciding, over, endTurn) {
  state.region.dataset.now = current;  // the card and event taps are for the player on turn now
  $$("form[data-decide-form]", state.region).forEach(function (f) { f.hidden = true; });
  if (endTurn && !over) {
    endTurn.hidden = !!deciding;
    endTurn.querySelector("input[name=player]").value = current;
    endTurn.querySelector("button").textContent = fill(live.text.live_end_turn, { p: current });
  }
  $$(".scores .badge.turn", state.region).forEach(function (b) { b.remove(); });
  $$(".scores .score", state.region).forEach(function (s) { s.classList.toggle("on-turn", s.dataset.player === current); });
  const who = $(".scores [data-player='" + CSS.escape(current) + "'] .nm", state.region);
  if (who) { who.prepend(tpl("tpl-turn-badge")); }
  const turn = $(".turn-bar .now", state.region);
  if (turn) { const next = tpl("tpl-turn-next"); $("span", next).textContent = current; turn.append(" ", next); }
}

export function layOver(q, panel) {
  const region = state.region;
  const mayDecide = $$(".scores [data-may-decide]", region).map(function (s) { return s.dataset.player; });
  const p = predict(live.turn, q.map(function (it) { return it.event; }), region.dataset.current || null,
    region.dataset.decide || null, mayDecide);
  showTaps(q, region);
  if (panel) { panel.appendChild(tpl(p.over ? "tpl-pending-over" : "tpl-pending-scores")); }
  const bar = $(".turn-actions", state.region);
  const ask = p.ask ? askOf(p.ask) : null;
  hideAnsweredPrompt(p.deciding);
  const endTurn = $("form[data-end-turn-form]", state.region);
  // Where the thumb is: on the End turn bar that was tapped.
  if (ask) { if (bar) { bar.prepend(ask); } else if (panel) { panel.appendChild(ask); } }
  if (p.current && p.current !== state.region.dataset.current) { showTurn(p.current, p.deciding, p.over, endTurn); }
  if (p.over && endTurn) { endTurn.hidden = true; }
}
