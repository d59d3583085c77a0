/* The script's state, in one place: what the page shows and what is on its way. */

export var state = {
  region: document.getElementById("region"),  // the part of the page the server's partials replace
  served: "",        // the region as the server last sent it
  busy: false,       // a post is on its way
  actor: null,       // the player the card taps are for, when not the engine's player on turn
  nextSeq: null,     // while a post is on its way: the log length once it is stored
  following: null,   // a seat-bound phone: the hand its table follows into
  queue: null        // the offline queue (queue.js), or its stand-in when the page has none
};
state.served = state.region ? state.region.outerHTML : "";
