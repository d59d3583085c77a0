/* The offline queue's data from the live hand's page (#live-data, liveview.offline_data): the
   engine's turn rules (turn) and the server's log-line templates and words (lines, text), so none
   is written here twice; and where this hand's taps and notes are kept on the phone. Read once by
   startQueue (queue.js): a page shows one live hand. */
import { $ } from "./dom.js";
import { state } from "./state.js";
import { load, save } from "./store.js";
import * as core from "./queue-core.js";

export const live = { cfg: null, text: {}, turn: null, tapsKey: "", notesKey: "" };

// The page's data, or null when it has none (not a live hand, or unreadable).
export function readLiveData() {
  const dataEl = $("#live-data");
  let cfg = null;
  try { cfg = dataEl ? JSON.parse(dataEl.textContent) : null; } catch (e) { cfg = null; }
  if (cfg) {
    Object.assign(live, { cfg: cfg, text: cfg.text, turn: cfg.turn, tapsKey: "sk.q." + cfg.key, notesKey: "sk.notes." + cfg.key });
  }
  return cfg;
}

export function pendingTaps() { return load(live.tapsKey); }
export function keepTaps(q) { save(live.tapsKey, q); }
export function notes() { return load(live.notesKey); }
export function keepNotes(list) { save(live.notesKey, list); }

// queue-core's pure parts, with this page's rules and words.
export function fill(text, values) { return core.fill(text, values); }
export function is(set, ev) { return core.is(live.turn, set, ev); }
export function describe(ev) { return core.describe(live.cfg, ev); }
export function refusalText(body, code) { return core.refusalText(live.cfg, body, code); }
export function mine(ev) { return core.mine(state.region.dataset.seat, ev); }
export function isStored(events, item) { return core.isStored(live.turn, state.region.dataset.seat, events, item); }
export function turnMoved(events) { return core.turnMoved(live.turn, events); }
