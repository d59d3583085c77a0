/* The script's state, in one place: what the page shows and what is on its way. */

export const state = {
  region: document.getElementById("region"),  // the part of the page the server's partials replace
  served: "",        // the region as the server last sent it
  busy: false,       // a post is on its way
  newest: 0,         // the newest table version this phone has heard of (answers, pushes, polls)
  actor: null,       // the player the card taps are for, when not the engine's player on turn
  nextSeq: null,     // while a post is on its way: the log length once it is stored
  following: null,   // a seat-bound phone: the hand its table follows into
  queue: null,       // the offline queue (queue.js), or its stand-in when the page has none
  // The offline queue's own (queue-send.js sends, queue-view.js shows):
  sending: null,            // the item on its way to the server
  waitingDecision: false,   // the first tap waits for a go or stop (the server said waiting_decision)
  retryTimer: null,         // the next try, while the server is unreachable or in trouble
  retryDelay: 0,            // doubling up to 30 s
  queueStatus: "",          // what the queue's panel says about the sending
  listOpen: false,          // the pending list stays open across redraws
  freshNotes: false,        // a note came since the panel was last drawn: scroll to it
  settling: false,          // a tap was settled and the refreshed region is not on the page yet
  settledSeq: 0             // ... and the log's length then
};
state.served = state.region ? state.region.outerHTML : "";
