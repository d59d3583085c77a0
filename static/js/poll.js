/* Live updates: poll the table's version, refresh the region when it moves (push.js, when its
   stream is open, tells of each change at once and asks for the same refresh). */
import { state } from "./state.js";
import { swap, showOffline, versionOf } from "./region.js";

export function refresh() {
  const region = state.region;
  if (!region || !region.dataset.refresh) { return Promise.resolve(false); }
  return fetch(region.dataset.refresh, { credentials: "same-origin", headers: { "X-Partial": "1" } })
    .then(function (r) { return r.ok ? r.text() : null; })
    .then(function (text) {
      // An answer that left the server before a tap's answer came back is older than the
      // page: keep the page (the next poll asks again if the table moved on).
      const v = text && /data-version="(\d+)"/.exec(text);
      if (v && state.region && parseInt(v[1], 10) < versionOf(state.region)) { return false; }
      return text ? swap(text) : false;
    })
    .catch(function () { return false; /* offline: the next poll tries again */ });
}

// A newer version than the page shows was heard of (a push, a poll): fetch it, unless a post is on
// its way (its answer may bring it; the "sk:idle" after it calls this again). A phone never stays
// on a version older than one it has heard of.
export function heard(version) {
  if (version > state.newest) { state.newest = version; }
  catchUp();
}

export function catchUp() {
  if (state.region && !state.busy && state.newest > versionOf(state.region)) { refresh(); }
}

function poll() {
  const region = state.region;
  // data-push: push.js has a stream open, which tells of each change at once.
  if (!region || !region.dataset.poll || state.busy || document.hidden || document.documentElement.dataset.push) { return; }
  fetch(region.dataset.poll, {
    credentials: "same-origin", cache: "no-store",
    headers: { "If-None-Match": '"v' + region.dataset.version + '"' }
  }).then(function (r) {
    showOffline(false);
    // The key no longer opens this table (or the table is gone): stop asking, so a
    // forgotten page does not spend this address's budget for guessing keys.
    if (r.status === 401 || r.status === 403 || r.status === 404) { delete state.region.dataset.poll; }
    return r.status === 200 ? r.json() : null;
  }).then(function (body) {
    if (body && String(body.version) !== state.region.dataset.version) { state.newest = Math.max(state.newest, body.version); refresh(); }
  }).catch(function () { showOffline(true); });
}

export function startPolling() {
  document.addEventListener("sk:idle", catchUp);
  const region = state.region;
  if (region && region.dataset.poll) {
    setInterval(poll, parseInt(region.dataset.interval || "1500", 10));
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }
}
