/* Taps still waiting on this phone for a hand not on screen: never forgotten quietly. */
import { $ } from "./dom.js";
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
    var p = document.createElement("p");
    p.className = "refusal";
    var a = document.createElement("a");
    var root = location.pathname.slice(0, location.pathname.indexOf("/t/" + tableId));
    a.href = root + "/t/" + tableId + "/hands/" + encodeURIComponent(hand);
    a.textContent = document.body.dataset.waiting || hand;
    p.appendChild(a);
    $("main").insertBefore(p, $("main").firstChild);
  });
}
