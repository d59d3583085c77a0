/* Taps still waiting on this phone for a hand not on screen: never forgotten quietly. */
import { $, tpl } from "./dom.js";
import { state } from "./state.js";
import { keys, load } from "./store.js";

export function showWaiting() {
  const tableId = document.body.dataset.table;
  if (!tableId) { return; }
  const queue = state.queue;
  const onScreen = queue.on ? "sk.q." + queue.key : null;
  const queues = "sk.q." + tableId + ".";
  const waiting = keys(queues).filter(function (hand) {
    return queues + hand !== onScreen && load(queues + hand).length;
  });
  waiting.forEach(function (hand) {
    const p = tpl("tpl-waiting");  // its words (the catalogue's) are on the page
    const root = location.pathname.slice(0, location.pathname.indexOf("/t/" + tableId));
    $("a", p).href = root + "/t/" + tableId + "/hands/" + encodeURIComponent(hand);
    $("main").insertBefore(p, $("main").firstChild);
  });
}
