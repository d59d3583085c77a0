/* 고스톱 점수판: changes pushed by the server as they are stored (Server-Sent Events).
   The live region (#region, see region.js) names its poll URL (/t/<id>/version); the stream is
   its neighbour /t/<id>/stream. Each event carries the table's version; a version newer than
   the region's makes poll.js refresh the region exactly as a poll would. While the stream is
   up, <html data-push="on"> and poll.js does not poll; when it breaks, polling takes over until
   EventSource has reconnected (it sends Last-Event-ID and is told the current version at
   once, so a phone catches up after a server restart). A stream that opens but stays silent
   (a proxy that buffers it) is given up for the poll, and tried again later. */
import { heard } from "./poll.js";

const SILENT_MS = 5000;       // the server speaks at once: silence this long means no stream
const RETRY_LATER_MS = 30000; // after giving up, the poll serves; the stream is tried again
const MAX_ERRORS = 10;        // reconnections in a row without a word (≈ 10 s with retry 1 s)

const root = document.documentElement;
function region() { return document.getElementById("region"); }
let url = "";
let newest = 0, source = null, errors = 0, silent = null;

function streaming(on) {
  if (on) { root.dataset.push = "on"; } else { delete root.dataset.push; }
}

// Refresh when the server is ahead of the region. A push that came while a tap was on its
// way is kept by poll.js (heard), which fetches it once the tap's answer is in: catching up
// on the tap's own swap came too early (the page is still busy then).
function catchUp() {
  if (!region() || !newest) { return; }
  heard(newest);
}

function giveUp() {
  clearTimeout(silent);
  if (source) { source.close(); source = null; }
  streaming(false);
  setTimeout(open, RETRY_LATER_MS);
}

function open() {
  if (!region() || !region().dataset.poll) { return; }  // the page stopped following (key gone)
  errors = 0;
  source = new EventSource(url);
  silent = setTimeout(giveUp, SILENT_MS);
  source.onmessage = function (ev) {
    clearTimeout(silent);
    errors = 0;
    streaming(true);
    const version = JSON.parse(ev.data).version;
    if (version > newest) { newest = version; }
    catchUp();
  };
  source.onerror = function () {
    streaming(false);  // the poll serves while EventSource reconnects
    if (source.readyState === EventSource.CLOSED || ++errors > MAX_ERRORS) { giveUp(); }
  };
}

export function startPushing() {
  const first = region();
  if (!window.EventSource || !first || !first.dataset.poll) { return; }
  url = first.dataset.poll.replace(/\/version$/, "/stream");
  document.addEventListener("sk:swapped", catchUp);
  open();
}
