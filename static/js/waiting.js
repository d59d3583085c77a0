/* Taps still waiting on this phone for a hand not on screen: never forgotten quietly. */
import { $, tpl } from "./dom.js";
import { state } from "./state.js";
import { keys, load } from "./store.js";

export function showWaiting() {
  var tableId = document.body.dataset.table;
  if (!tableId) { return; }
  var queue = state.queue;
  var onScreen = queue.on ? "sk.q." + queue.key : null;
  var queues = "sk.q." + tableId + ".";
  var waiting = keys(queues).filter(function (hand) {
    return queues + hand !== onScreen && load(queues + hand).length;
  });
  waiting.forEach(function (hand) {
    var p = tpl("tpl-waiting");  // its words (the catalogue's) are on the page
    var root = location.pathname.slice(0, location.pathname.indexOf("/t/" + tableId));
    $("a", p).href = root + "/t/" + tableId + "/hands/" + encodeURIComponent(hand);
    $("main").insertBefore(p, $("main").firstChild);
  });
}
