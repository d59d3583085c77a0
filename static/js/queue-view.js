/* The offline queue, what the player sees: the pending taps laid over the server's view
   (queue-pending.js), the panel that says how the sending goes, the notes of taps refused or
   merged. Pieces from the page's <template>s. */
import { $, tpl } from "./dom.js";
import { state } from "./state.js";
import { redraw, showOffline } from "./region.js";
import { live, pendingTaps, notes, describe } from "./queue-live.js";
import { layOver } from "./queue-pending.js";

// A badge at the head of the End turn bar.
function badge(bar, piece) { bar.firstElementChild.prepend(piece, " "); }

// The notes of taps refused or merged, after anchor: the box, which is the next anchor.
function showNotes(list, anchor, bar) {
  const box = tpl("tpl-notes");
  const ul = $("ul", box);
  list.forEach(function (n) { const li = tpl("tpl-note"); li.className = n.kind; li.textContent = n.text; ul.appendChild(li); });
  anchor.after(box);
  if (bar) {
    const warn = tpl("tpl-notes-count");
    warn.append(String(list.length));
    badge(bar, warn);
  }
  if (state.freshNotes && box.getBoundingClientRect().top < 0) { box.scrollIntoView({ block: "start" }); }
  state.freshNotes = false;
  return box;
}

// The panel: how many taps wait, how the sending goes, the list of them.
function queuePanel(q, offline) {
  const panel = tpl("tpl-queue");
  $(".pending-count", panel).textContent = String(q.length);
  const said = state.queueStatus || (offline ? live.text.pending_offline : (state.sending ? live.text.pending_sending : ""));
  if (said) { const line = tpl("tpl-queue-state"); line.textContent = said; panel.appendChild(line); }
  if (q.length) { panel.appendChild(pendingList(q)); }
  return panel;
}

function pendingList(q) {
  const list = tpl("tpl-pending-list");
  list.open = state.listOpen;
  list.addEventListener("toggle", function () { state.listOpen = list.open; });
  $("summary", list).textContent = describe(q[q.length - 1].event) + (q.length > 1 ? " (+" + (q.length - 1) + ")" : "");
  const ol = $("ol", list);
  q.forEach(function (it) {
    const li = tpl("tpl-pending-line");
    if (state.sending && it.id === state.sending.id) { li.classList.add("sending"); }
    li.prepend(describe(it.event));
    ol.appendChild(li);
  });
  return list;
}

export function overlay() {
  const q = pendingTaps(), kept = notes();
  const offline = navigator.onLine === false;
  if (offline) { showOffline(true); }
  const undoForm = $("form[data-undo]", state.region);
  if (undoForm && q.length) { undoForm.hidden = false; }
  const bar = $(".turn-bar", state.region);
  if (!q.length && !kept.length && !(offline && bar)) { return; }
  let anchor = bar || $("#pending", state.region);
  // On the live page the panels go into the 먹은 패 sheet (the bar's badge opens it): in the
  // page they pushed the cards down.
  const sheetHead = $("#piles .sheet-head", state.region);
  if (kept.length) { anchor = showNotes(kept, anchor, bar); }
  if (!q.length && !(offline && bar)) { return; }
  if (!offline && !state.queueStatus) {
    // Online, the taps merely wait for the one on its way: no panel, the cards show it.
    layOver(q, null);
    if (bar) { const count = tpl("tpl-pending-count"); count.prepend(String(q.length)); badge(bar, count); }
    return;
  }
  const panel = queuePanel(q, offline);
  (sheetHead || anchor).after(panel);
  if (q.length) { layOver(q, panel); }
  if (bar && q.length) {
    const link = tpl("tpl-pending-link");
    link.prepend(String(q.length));
    badge(bar, link);
  }
}

export function say(text) {
  redraw();
  const p = tpl("tpl-said");
  p.textContent = text;
  ($("#queue", state.region) || $("#pending", state.region)).after(p);
}
