/* A seat-bound phone (every player on their own phone) follows its table into the hand that
   has just started (data-follow appears in a refreshed region); opened while one is live, the
   page stays where it is. */
import { state } from "./state.js";

export function startFollowing() {
  state.following = state.region && state.region.dataset.follow;
  document.addEventListener("sk:swapped", function () {
    const follow = state.region && state.region.dataset.follow;
    if (follow && follow !== state.following) { window.location.assign(follow); }
    state.following = follow;
  });
}
