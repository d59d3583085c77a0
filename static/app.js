/* 고스톱 점수판: taps without reloads, live updates, taps kept while offline, the rules sheet,
   recent tables. Plain JavaScript modules (no build step), one behaviour a file under js/;
   no inline script anywhere (the page's CSP allows only files). Every form also works without
   it (post/redirect/get). This file is the entry point: it starts each behaviour in order. */
import { state } from "./js/state.js";
import { startLive } from "./js/live.js";
import { keepTapsOnWhatWasPressed } from "./js/press.js";
import { leaveRoomForTheBar } from "./js/bar.js";
import { startFollowing } from "./js/seats.js";
import { startPolling } from "./js/poll.js";
import { startQueue } from "./js/queue.js";
import { startKeeping } from "./js/keep.js";
import { showWaiting } from "./js/waiting.js";
import { startForgetting } from "./js/forget.js";
import { startRulesSheet } from "./js/rulesheet.js";
import { keepRecent } from "./js/recent.js";
import { startCopying } from "./js/copy.js";
import { showLocalTimes } from "./js/times.js";
import { goOnFromShareLink } from "./js/enter.js";
import { startPushing } from "./js/push.js";
import { showChosenFileNames, openResultsAtTop } from "./js/screens.js";
import { startQuickEntry } from "./js/quick.js";
import { startGroupPage } from "./js/group.js";

startLive();       // swap and post; the sheets and the player chips
keepTapsOnWhatWasPressed();  // a tap is the card pressed, even if the page moved it meanwhile
leaveRoomForTheBar();  // the live page ends where the End turn bar begins
startFollowing();  // a seat-bound phone follows its table into the next hand
startPolling();    // live updates (startPushing below, when its stream is open)
state.queue = startQueue();  // the offline queue (a stand-in that takes nothing when the page has none)
startKeeping();    // the service worker and the kept copy of this page
showWaiting();     // links to taps still waiting for another hand
startForgetting();
startRulesSheet();
keepRecent();
startCopying();
showLocalTimes();  // the history's times in the phone's time zone
goOnFromShareLink();  // a group's share link goes on to its page
startPushing();    // changes pushed by the server as they are stored
showChosenFileNames();
openResultsAtTop();  // a hand that ends on the live screen
startQuickEntry();  // the quick entry page: one card picker, the payment previewed
startGroupPage();  // the group page: the share sheet, one tap on "sent it"
