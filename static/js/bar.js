/* The page ends where the fixed End turn bar begins: its height, as drawn at this text size with
   its words wrapped, is the room left under the page (--bar); 6rem guessed it, and at 100 % the
   guess's spare 36 px were the line the what-if line and the bak badges now keep. */
import { $ } from "./dom.js";

export function leaveRoomForTheBar() {
  if (!window.ResizeObserver) { return; }
  const root = document.documentElement;
  let drawn = 0;  // the bar's height the page's room was last set to
  const sizes = new ResizeObserver(function (entries) {
    const bar = entries[entries.length - 1].target;
    if (!bar.isConnected) { return; }
    const height = bar.getBoundingClientRect().height;
    const page = document.scrollingElement || root;
    // A page read to its end stays at its end when the bar grows (the offline go-or-stop row
    // joins it): the rows it showed above the bar would otherwise slide under it. Anywhere
    // else the page keeps still, so a card under a finger stays under it.
    const atEnd = page.scrollTop >= page.scrollHeight - window.innerHeight - 2;
    const grew = drawn ? height - drawn : 0;
    root.style.setProperty("--bar", height + "px");
    drawn = height;
    if (atEnd && grew > 0) { window.scrollBy(0, grew); }
  });
  function follow() {
    const bar = $(".live-page .turn-actions");
    sizes.disconnect();
    if (bar) { sizes.observe(bar); } else { root.style.removeProperty("--bar"); drawn = 0; }
  }
  document.addEventListener("sk:swapped", follow);  // the bar is the region's: drawn anew each tap
  follow();
}
