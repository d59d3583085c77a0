/* The region: replaced whole by the server's partial.
   On the live hand the region is the part a tap changes (scores, turn, last event, the
   End turn bar); the cards and the events stay on the page and the region's data-owners
   says who holds which card. */
import { $, $$ } from "./dom.js";
import { state } from "./state.js";

export function markOwners() {
  const region = state.region;
  if (!region || !region.hasAttribute("data-live")) { return; }
  let owners = {};
  try { owners = JSON.parse(region.dataset.owners || "{}"); } catch (e) { owners = {}; }
  $$(".picker [data-card]").forEach(function (card) {
    const o = owners[card.dataset.card];
    card.className = card.className.replace(/\s*\b(taken|shown|pend|p\d)\b/g, "");
    if (o) { card.classList.add("taken", o[1]); if (o[2]) { card.classList.add("shown"); } }
    const label = $(".owner", card);
    if (label) { label.textContent = o ? o[0] : ""; }
    if (card.tagName === "BUTTON") { card.disabled = !!o; }
  });
}

export function markActor() {
  const region = state.region;
  if (!region) { return; }
  if (state.actor && state.actor === region.dataset.current) { state.actor = null; }
  $$(".scores .score", region).forEach(function (s) {
    s.classList.toggle("actor", s.dataset.player === (state.actor || region.dataset.current));
  });
}

// quiet: a redraw of what the server sent last (to lay the pending taps over it again)
export function swap(html, quiet) {
  const t = document.createElement("template");
  t.innerHTML = html;
  const fresh = t.content.getElementById("region");
  let region = state.region;
  if (!fresh || !region) { return false; }
  state.served = fresh.outerHTML;
  state.newest = Math.max(state.newest, versionOf(fresh));
  const open = $$("details[id][open]", region).map(function (d) { return d.id; });
  const turnBefore = region.dataset.turn;
  region.replaceWith(fresh);
  region = state.region = fresh;
  open.forEach(function (id) { const d = document.getElementById(id); if (d) { d.open = true; } });
  if (region.dataset.turn !== turnBefore) { state.actor = null; }
  markOwners();
  markActor();
  // The hand is over: the cards and events go, the result shows.
  $$(".live-static").forEach(function (s) { s.hidden = !region.hasAttribute("data-live"); });
  document.body.classList.toggle("live-page", region.hasAttribute("data-live"));
  const prompt = region.querySelector(".refusal");
  if (!quiet && prompt && prompt.getBoundingClientRect().top < 0) { prompt.scrollIntoView({ block: "start" }); }
  if (!region.hasAttribute("data-live") && !quiet) {
    window.scrollTo(0, 0);
  }
  document.dispatchEvent(new CustomEvent("sk:swapped", { detail: { quiet: !!quiet } }));
  return true;
}

export function redraw() { swap(state.served, true); }

export function versionOf(region) { return parseInt((region && region.dataset.version) || "0", 10); }

// An answer's region older than the one on the page (another phone's change was shown meanwhile).
export function older(html) {
  const v = /data-version="(\d+)"/.exec(html || "");
  return !!v && parseInt(v[1], 10) < versionOf(state.region);
}

let toastTimer = null;
export function toast(text) {
  // The confirmation is said on the turn bar's last-event line, in its place: a message
  // floating over the page covered the event buttons and swallowed the next tap.
  const line = state.region && $("[data-last-line]", state.region);
  if (!line) { return; }
  line.id = "toast";
  line.setAttribute("role", "status");
  line.textContent = text;
  line.classList.add("said");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () { line.classList.remove("said"); }, 2200);
}

export function setBusy(on) {
  state.busy = on;
  document.documentElement.classList.toggle("busy", on);
  const note = $("#pending");
  if (note) { note.hidden = !on; }
  // A newer version heard of while the post was on its way was not fetched then: now it is (poll.js).
  if (!on) { document.dispatchEvent(new CustomEvent("sk:idle")); }
}

export function showOffline(on) {
  const off = $("#offline");
  if (off) { off.hidden = !on; }
}

export function closeSheets(except) {
  $$("details.sheet[open]").forEach(function (d) { if (d !== except) { d.open = false; } });
}
