/* The page ends where the fixed End turn bar begins: its height, as drawn at this text size with
   its words wrapped, is the room left under the page (--bar); 6rem guessed it, and at 100 % the
   guess's spare 36 px were the line the what-if line and the bak badges now keep. */
import { $ } from "./dom.js";

export function leaveRoomForTheBar() {
  if (!window.ResizeObserver) { return; }
  const root = document.documentElement;
  const sizes = new ResizeObserver(function (entries) {
    const bar = entries[entries.length - 1].target;
    if (bar.isConnected) { root.style.setProperty("--bar", bar.getBoundingClientRect().height + "px"); }
  });
  function follow() {
    const bar = $(".live-page .turn-actions");
    sizes.disconnect();
    if (bar) { sizes.observe(bar); } else { root.style.removeProperty("--bar"); }
  }
  document.addEventListener("sk:swapped", follow);  // the bar is the region's: drawn anew each tap
  follow();
}
