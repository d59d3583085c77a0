/* 고스톱 점수판: taps without reloads, live updates, taps kept while offline, the rules sheet,
   recent tables. Plain JavaScript, no inline script anywhere (the page's CSP allows only this
   file). Every form also works without it (post/redirect/get). */
(function () {
  "use strict";

  var script = document.currentScript;
  var region = document.getElementById("region");
  var served = region ? region.outerHTML : "";  // the region as the server last sent it
  var busy = false;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // -- the region: replaced whole by the server's partial -------------------------------
  // On the live hand the region is the part a tap changes (scores, turn, last event, the
  // End turn bar); the cards and the events stay on the page and the region's data-owners
  // says who holds which card.
  var actor = null;  // the player the card taps are for, when not the engine's player on turn
  var nextSeq = null;  // while a post is on its way: the log length once it is stored

  function markOwners() {
    if (!region || !region.hasAttribute("data-live")) { return; }
    var owners = {};
    try { owners = JSON.parse(region.dataset.owners || "{}"); } catch (e) { owners = {}; }
    $$(".picker [data-card]").forEach(function (card) {
      var o = owners[card.dataset.card];
      card.className = card.className.replace(/\s*\b(taken|shown|pend|p\d)\b/g, "");
      if (o) { card.classList.add("taken", o[1]); if (o[2]) { card.classList.add("shown"); } }
      var label = $(".owner", card);
      if (label) { label.textContent = o ? o[0] : ""; }
      if (card.tagName === "BUTTON") { card.disabled = !!o; }
    });
  }

  function markActor() {
    if (!region) { return; }
    if (actor && actor === region.dataset.current) { actor = null; }
    $$(".scores .score", region).forEach(function (s) {
      s.classList.toggle("actor", s.dataset.player === (actor || region.dataset.current));
    });
  }

  // quiet: a redraw of what the server sent last (to lay the pending taps over it again)
  function swap(html, quiet) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.getElementById("region");
    if (!fresh || !region) { return false; }
    served = fresh.outerHTML;
    var open = $$("details[id][open]", region).map(function (d) { return d.id; });
    var turnBefore = region.dataset.turn;
    region.replaceWith(fresh);
    region = fresh;
    open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
    if (region.dataset.turn !== turnBefore) { actor = null; }
    markOwners();
    markActor();
    // The hand is over: the cards and events go, the result shows.
    $$(".live-static").forEach(function (s) { s.hidden = !region.hasAttribute("data-live"); });
    document.body.classList.toggle("live-page", region.hasAttribute("data-live"));
    var prompt = region.querySelector(".refusal");
    if (!quiet && prompt && prompt.getBoundingClientRect().top < 0) { prompt.scrollIntoView({ block: "start" }); }
    if (!region.hasAttribute("data-live") && !quiet) {
      window.scrollTo(0, 0);
    }
    document.dispatchEvent(new CustomEvent("sk:swapped", { detail: { quiet: !!quiet } }));
    return true;
  }

  var toastTimer = null;
  function toast(text) {
    // The confirmation is said on the turn bar's last-event line, in its place: a message
    // floating over the page covered the event buttons and swallowed the next tap.
    var line = region && $("[data-last-line]", region);
    if (!line) { return; }
    line.id = "toast";
    line.setAttribute("role", "status");
    line.textContent = text;
    line.classList.add("said");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { line.classList.remove("said"); }, 2200);
  }

  function setBusy(on) {
    busy = on;
    document.documentElement.classList.toggle("busy", on);
    var note = $("#pending");
    if (note) { note.hidden = !on; }
  }

  function showOffline(on) {
    var off = $("#offline");
    if (off) { off.hidden = !on; }
  }

  // tap: the event the form makes, queued if the post never reaches the server
  function post(url, data, tap, say) {
    setBusy(true);
    return fetch(url, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Partial": "1", "Accept": "text/html" }
    }).then(function (r) {
      // 503/507: the database could not store it (nothing was): the queue keeps the tap and retries.
      if (tap && (r.status === 503 || r.status === 507)) { tap.forEach(function (t) { queue.unanswered(t); }); return; }
      return r.text().then(function (text) {
        if (!swap(text)) { window.location.reload(); return; }
        if (r.ok && say && region.hasAttribute("data-live")) { toast(say(region.dataset.last || "")); }
      });
    }).catch(function () {
      showOffline(true);
      if (tap) { tap.forEach(function (t) { queue.unanswered(t); }); }
    }).then(function () { setBusy(false); queue.flush(); });
  }

  function closeSheets(except) {
    $$("details.sheet[open]").forEach(function (d) { if (d !== except) { d.open = false; } });
  }
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (d.matches && d.matches("details.sheet") && d.open) { closeSheets(d); }
  }, true);
  document.addEventListener("click", function (ev) {
    var close = ev.target.closest("[data-close-sheet]");
    if (close) { closeSheets(null); return; }
    var opens = ev.target.closest("[data-open-piles]");
    if (opens) { var piles = document.getElementById("piles"); if (piles) { piles.open = true; } }
    if (ev.target.closest("[data-close-confirm]")) { $$("[data-confirm]").forEach(function (e) { e.remove(); }); return; }
    var chip = ev.target.closest("[data-actor]");
    if (chip && region && region.contains(chip)) {
      actor = chip.dataset.actor === region.dataset.current ? null : chip.dataset.actor;
      markActor();
      toast(chip.title);
    }
  });

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches("form[data-live]") || !window.fetch || !region) { return; }
    ev.preventDefault();
    var data = new FormData(form, ev.submitter || undefined);
    // The controls outside the region were drawn once: the log length and the player on
    // turn are the region's, as of now.
    data.set("seq", region.dataset.seq || "0");
    // A seat-bound phone taps for its own player (the turn before passes on the server).
    if (form.hasAttribute("data-actor")) { data.set("player", actor || region.dataset.seat || region.dataset.now || region.dataset.current || ""); }
    closeSheets(null);
    var undoing = form.hasAttribute("data-undo");
    var events = undoing || form.hasAttribute("data-give") ? [] : eventsOf(data);
    var card = ev.submitter && ev.submitter.dataset.card;  // a card of the picker: taken by the player
    if (card) { queue.mark(card, data.get("player")); }  // shown taken at once; the answer confirms
    if (undoing && queue.undo()) { return; }
    // Naming the junk given replaces the last stored event: only with the server's log in view.
    var giving = form.hasAttribute("data-give");
    if (giving && queue.takes()) { return; }
    if (!undoing && queue.takes()) { events.forEach(function (e) { queue.add(e, data.get("skip") === "1"); }); return; }
    if (busy) { return; }
    var seq = parseInt(data.get("seq"), 10);
    nextSeq = undoing ? null : seq + events.length;  // what the log will be once this post is stored
    var tap = undoing || giving || !queue.on ? null : events.map(function (e, i) { return { seq: seq + i, event: e }; });
    var say = card ? null : function (last) { return undoing ? queue.text("live_undone") : last; };
    post(form.getAttribute("action"), data, tap, say);
  });
  markOwners();
  markActor();
  // A seat-bound phone follows its table into the hand that has just started (data-follow
  // appears in a refreshed region); opened while one is live, the page stays where it is.
  var following = region && region.dataset.follow;
  document.addEventListener("sk:swapped", function () {
    var follow = region && region.dataset.follow;
    if (follow && follow !== following) { window.location.assign(follow); }
    following = follow;
  });

  // -- live updates: poll the table's version, refresh the region when it moves ---------
  function refresh() {
    if (!region || !region.dataset.refresh) { return Promise.resolve(false); }
    return fetch(region.dataset.refresh, { credentials: "same-origin", headers: { "X-Partial": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        // An answer that left the server before a tap's answer came back is older than the
        // page: keep the page (the next poll asks again if the table moved on).
        var v = text && /data-version="(\d+)"/.exec(text);
        if (v && region && parseInt(v[1], 10) < parseInt(region.dataset.version || "0", 10)) { return false; }
        return text ? swap(text) : false;
      })
      .catch(function () { return false; /* offline: the next poll tries again */ });
  }

  function poll() {
    // data-push: push.js has a stream open, which tells of each change at once.
    if (!region || !region.dataset.poll || busy || document.hidden || document.documentElement.dataset.push) { return; }
    fetch(region.dataset.poll, {
      credentials: "same-origin", cache: "no-store",
      headers: { "If-None-Match": '"v' + region.dataset.version + '"' }
    }).then(function (r) {
      showOffline(false);
      // The key no longer opens this table (or the table is gone): stop asking, so a
      // forgotten page does not spend this address's budget for guessing keys.
      if (r.status === 401 || r.status === 403 || r.status === 404) { delete region.dataset.poll; }
      return r.status === 200 ? r.json() : null;
    }).then(function (body) {
      if (body && String(body.version) !== region.dataset.version) { refresh(); }
    }).catch(function () { showOffline(true); });
  }

  // The entry point for whatever learns that the table changed (the poll below, a push):
  // window.sk.refresh() or the "sk:refresh" event fetch the region again.
  window.sk = { refresh: refresh };
  document.addEventListener("sk:refresh", function () { refresh(); });
  window.skLive = { refresh: refresh, busy: function () { return busy; } };  // for push.js

  if (region && region.dataset.poll) {
    setInterval(poll, parseInt(region.dataset.interval || "1500", 10));
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }

  // -- offline: taps kept on this phone, sent in order when the connection is back ------
  // Each tap is queued with the log length (seq) it was made against and sent to the API
  // one by one. The server's log wins: a stale seq (409) re-bases the queue after the
  // other phone's events, and the engine then takes or refuses each tap; a refused one
  // leaves the queue and is shown as "not saved", never dropped silently.
  function eventsOf(data) {
    // The form's fields as the server's event_from() reads them: only those the form has.
    // "then" (Go or Stop on the End turn bar) is the player's answer: a second event.
    var ev = {};
    data.forEach(function (value, name) {
      if (name === "csrf_token" || name === "seq" || name === "then" || name === "skip" || value === "") { return; }
      if (name === "cards") {
        ev.cards = ev.cards || [];
        if (ev.cards.indexOf(value) < 0) { ev.cards.push(value); }
      } else if (name === "month" || name === "multiplier") { ev[name] = parseInt(value, 10); } else if (name === "last_card") {
        ev.last_card = true;
      } else { ev[name] = value; }
    });
    var then = data.get("then");
    return then ? [ev, { type: then, player: ev.player }] : [ev];
  }

  var queue = (function () {
    var dataEl = $("#live-data");
    var cfg = null;
    try { cfg = dataEl ? JSON.parse(dataEl.textContent) : null; } catch (e) { cfg = null; }
    if (!cfg || !region || !window.fetch) {
      return { on: false, takes: function () { return false; }, undo: function () { return false; },
               add: function () {}, unanswered: function () {}, flush: function () {},
               mark: function () {}, text: function () { return ""; } };
    }
    // The rules and words come with the page (liveview.offline_data): the engine's turn rules
    // (cfg.turn) and the server's log-line templates (cfg.lines), so none is written here twice.
    var T = cfg.text, R = cfg.turn, QKEY = "sk.q." + cfg.key, NKEY = "sk.notes." + cfg.key;
    var memory = {};      // when localStorage is refused (private mode), this page keeps them
    var sending = null;   // the item on its way to the server
    var waiting = false;  // the first tap waits for a go or stop (the server said waiting_decision)
    var timer = null, delay = 0, status = "", listOpen = false, fresh = false, settling = false, settledSeq = 0;

    function load(key) {
      try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return memory[key] || []; }
    }
    function save(key, list) {
      memory[key] = list;
      try {
        if (list.length) { localStorage.setItem(key, JSON.stringify(list)); } else { localStorage.removeItem(key); }
      } catch (e) { /* kept in memory */ }
    }
    function fill(text, values) {
      return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] != null ? values[k] : m; });
    }
    function is(set, ev) { return !!ev && R[set].indexOf(ev.type) >= 0; }
    function own(map, key) { return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : null; }  // names are data
    // A template of the log's words (web/hands/eventlines.py): {field} or {field:table};
    // null when the event has not that field, so the next alternative is tried.
    function present(v) { return !!v && !(typeof v === "object" && !Object.keys(v).length); }
    function show(v, table) {
      if (Array.isArray(v)) { return v.map(function (x) { return show(x, table); }).join(", "); }
      if (v && typeof v === "object") { return Object.keys(v).map(function (k) { return k + " " + show(v[k]); }).join(", "); }
      var text = String(v);
      var named = table && own(table, text);
      return named != null ? named : text;
    }
    function template(text, values) {
      var re = /\{(\w+)(?::(\w+))?\}/g, m;
      while ((m = re.exec(text))) { if (!present(values[m[1]])) { return null; } }
      return text.replace(re, function (all, name, table) { return show(values[name], table ? cfg[table] : null); });
    }
    function first(alternatives, values) {
      for (var i = 0; i < alternatives.length; i++) {
        var text = template(alternatives[i], values);
        if (text !== null) { return text; }
      }
      return null;
    }
    function describe(ev) {
      // The line the server's log will show for this event (eventlines.write, the same templates).
      var L = cfg.lines, values = Object.assign({ type: "?" }, ev);
      var parts = (own(L.types, values.type) || L.types["*"]).map(function (alts) { return first(alts, values); })
        .filter(function (p) { return p !== null; });
      return first(L.line, Object.assign({}, values, { pieces: parts.join(L.join) })) || "";
    }
    function canonical(ev) {
      var keys = Object.keys(ev || {}).filter(function (k) { return R.ignored.indexOf(k) < 0; }).sort();
      return JSON.stringify(keys.map(function (k) {
        return [k, k === "cards" && Array.isArray(ev[k]) ? ev[k].slice().sort() : ev[k]];
      }));
    }
    function note(kind, text) {
      var notes = load(NKEY);
      var last = notes[notes.length - 1];
      if (kind === "conflict" && last && last.kind === "conflict") { notes.pop(); }
      notes.push({ kind: kind, text: text });
      save(NKEY, notes);
      fresh = true;
    }
    function refusalText(body, status) {
      var e = body && body.errors && body.errors[0];
      if (!e) { return "HTTP " + status; }
      // Korean phones read the catalogue's sentence (the engine's own is English), as refusal() on the server.
      return cfg.refuse[e.code] || cfg.refuse.generic || e.message;
    }
    function mine(ev) { return !!region.dataset.seat && !!ev && ev.player === region.dataset.seat; }
    function isStored(events, item) {
      // At its seq, or (a seat's tap) after the turn ends the server stored before it.
      for (var i = item.seq; i < events.length && i <= item.seq + 3; i++) {
        if (canonical(events[i]) === canonical(item.event)) { return true; }
        if (!mine(item.event) || !is("asks", events[i])) { return false; }
      }
      return false;
    }
    function turnMoved(events) {
      // The log another phone added: did play move on in it (an end of turn, or a go)?
      return events.some(function (e) { return is("passes", e); });
    }
    function renumber(q, from) {
      q.forEach(function (it, i) { it.seq = from + i; });
      return q;
    }

    // -- what the player sees: the pending taps laid over the server's view -------------
    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) { e.className = cls; }
      if (text != null) { e.textContent = text; }
      return e;
    }

    function overlay() {
      var q = load(QKEY), notes = load(NKEY);
      var offline = navigator.onLine === false;
      if (offline) { showOffline(true); }
      var undoForm = $("form[data-undo]", region);
      if (undoForm && q.length) { undoForm.hidden = false; }
      var bar = $(".turn-bar", region);
      if (!q.length && !notes.length && !(offline && bar)) { return; }
      var anchor = bar || $("#pending", region);
      // On the live page the panels go into the 먹은 패 sheet (the bar's badge opens it): in the
      // page they pushed the cards down.
      var sheetHead = $("#piles .sheet-head", region);

      if (notes.length) {
        var box = el("section", "refusal notes");
        box.id = "queue-notes";
        box.setAttribute("role", "alert");
        var ul = el("ul");
        notes.forEach(function (n) { ul.appendChild(el("li", n.kind, n.text)); });
        box.appendChild(ul);
        var ok = el("button", "small", T.got_it);
        ok.type = "button";
        ok.setAttribute("data-dismiss-notes", "");
        box.appendChild(ok);
        anchor.after(box);
        anchor = box;
        if (bar) {
          var warn = el("a", "badge notes-count", "⚠ " + notes.length);
          warn.href = "#queue-notes";
          bar.firstElementChild.prepend(warn, " ");
        }
        if (fresh && box.getBoundingClientRect().top < 0) { box.scrollIntoView({ block: "start" }); }
        fresh = false;
      }
      if (!q.length && !(offline && bar)) { return; }
      if (!offline && !status) {
        // Online, the taps merely wait for the one on its way: no panel, the cards show it.
        layOver(q, null);
        if (bar) { bar.firstElementChild.prepend(el("span", "badge pending-count", q.length + " " + T.pending), " "); }
        return;
      }

      var panel = el("section", "box queue");
      panel.id = "queue";
      panel.setAttribute("aria-live", "polite");
      var head = el("p", "queue-head");
      head.appendChild(el("span", "badge pending-count", String(q.length)));
      head.appendChild(el("b", "", T.pending));
      panel.appendChild(head);
      var state = status || (offline ? T.pending_offline : (sending ? T.pending_sending : ""));
      if (state) { panel.appendChild(el("p", "hint queue-state", state)); }
      if (q.length) {
        var list = el("details", "pending-list");
        list.open = listOpen;
        list.addEventListener("toggle", function () { listOpen = list.open; });
        list.appendChild(el("summary", "pend", describe(q[q.length - 1].event) + (q.length > 1 ? " (+" + (q.length - 1) + ")" : "")));
        var ol = el("ol");
        q.forEach(function (it) {
          var li = el("li", "pend" + (sending && it.id === sending.id ? " sending" : ""), describe(it.event));
          li.appendChild(el("span", "tag", T.pending));
          ol.appendChild(li);
        });
        list.appendChild(ol);
        panel.appendChild(list);
      }
      (sheetHead || anchor).after(panel);
      if (q.length) { layOver(q, panel); }
      if (bar && q.length) {
        var badge = el("a", "badge pending-count", q.length + " " + T.pending);
        badge.href = "#queue";
        badge.setAttribute("data-open-piles", "");
        bar.firstElementChild.prepend(badge, " ");
      }
    }

    function layOver(q, panel) {
      // Cards taken by pending captures, the pending log lines, whose turn it will be.
      var current = region.dataset.current || null, deciding = region.dataset.decide || null;
      var asked = null, over = false, ask = null, took = {};
      var log = $("#log ol", region);
      q.forEach(function (it) {
        var e = it.event;
        if (e.cards) {  // the cards an event names are its player's (a capture)
          e.cards.forEach(function (c) { markCard(c, e.player); });
          took[e.player] = true;
        }
        if (is("asks", e) && !deciding && current) {
          asked = e.player || current;
          current = own(R.next, asked);  // unless go or stop is asked: then the answer says
        } else if (is("answers", e) && (e.player === deciding || e.player === asked)) {
          if (is("passes", e)) { current = own(R.next, e.player); }
          deciding = null;
          asked = null;
        } else { asked = null; }
        if (is("ends", e)) { over = true; }
        if (log) {
          var li = el("li", "pend", describe(e));
          li.appendChild(el("span", "tag", T.pending));
          log.insertBefore(li, log.firstChild);
        }
      });
      if (panel) { panel.appendChild(el("p", "hint", over ? T.pending_over : T.pending_scores)); }
      var bar = $(".turn-actions", region);
      if (asked && is("asks", q[q.length - 1].event)) {
        // Go or stop may have been asked only of a player the engine would ask on the score it
        // knows (data-may-decide) or who took cards it has not scored yet: never of one who took nothing.
        var known = $(".scores [data-player='" + CSS.escape(asked) + "']", region);
        if ((known && known.hasAttribute("data-may-decide")) || took[asked]) {
          ask = el("div", "actions ask");
          ask.appendChild(el("span", "muted", fill(T.pending_ask, { p: asked })));
          R.answers.forEach(function (t) {
            var b = el("button", "btn " + t, T[t]);
            b.type = "button";
            b.setAttribute("data-queue-event", JSON.stringify({ type: t, player: asked }));
            ask.appendChild(b);
          });
        }
      }
      var prompt = $(".prompt", region);
      if (prompt && !deciding && region.dataset.decide) {
        prompt.hidden = true;
        var backdrop = $(".prompt-backdrop", region);
        if (backdrop) { backdrop.hidden = true; }
      }
      var endTurn = $("form[data-end-turn-form]", region);
      // Where the thumb is: on the End turn bar that was tapped.
      if (ask) { if (bar) { bar.prepend(ask); } else if (panel) { panel.appendChild(ask); } }
      if (current && current !== region.dataset.current) {
        region.dataset.now = current;  // the card and event taps are for the player on turn now
        $$("form[data-decide-form]", region).forEach(function (f) { f.hidden = true; });
        if (endTurn && !over) {
          endTurn.hidden = !!deciding;
          endTurn.querySelector("input[name=player]").value = current;
          endTurn.querySelector("button").textContent = fill(T.live_end_turn, { p: current });
        }
        $$(".scores .badge.turn", region).forEach(function (b) { b.remove(); });
        $$(".scores .score", region).forEach(function (s) { s.classList.toggle("on-turn", s.dataset.player === current); });
        var who = $(".scores [data-player='" + CSS.escape(current) + "'] .nm", region);
        if (who) { who.prepend(el("span", "badge turn pend", "▶")); }
        var turn = $(".turn-bar .now", region);
        if (turn) { turn.append(" ", el("span", "pend", "→ " + current + " ▶")); }
      }
      if (over && endTurn) { endTurn.hidden = true; }
    }

    function markCard(code, player) {
      // A pending capture: the card shows taken (dashed) at once, the points wait for the server.
      var card = $(".picker [data-card='" + CSS.escape(code) + "']");
      var score = $(".scores [data-player='" + CSS.escape(player || "") + "']", region);
      if (!card || card.disabled && !card.classList.contains("pend")) { return; }
      var seat = score ? (score.className.match(/\bp\d\b/) || [""])[0] : "";
      card.disabled = true;
      card.classList.add("taken", "pend");
      if (seat) { card.classList.add(seat); }
      var label = $(".owner", card);
      if (label) { label.textContent = player || "?"; }
      var points = score && $("[data-points]", score);
      if (points) { points.classList.add("stale"); }
    }

    function redraw() { swap(served, true); }
    document.addEventListener("sk:swapped", overlay);
    document.addEventListener("sk:swapped", function (ev) {
      if (ev.detail.quiet) { return; }
      var held = $("#held", region);
      if (held) {  // the server held a seat's tap until a go or stop: it waits here, in order
        var h = JSON.parse(held.getAttribute("data-held"));
        held.remove();
        waiting = true;
        add(h.event, h.skip);
      } else if (waiting && !region.dataset.decide) { waiting = false; status = ""; flush(); }
    });

    // -- sending ------------------------------------------------------------------------
    function takes() {
      // Once one tap waits, every later one queues behind it: the order is the log's.
      return load(QKEY).length > 0 || sending !== null || busy || settling || navigator.onLine === false;
    }

    function add(ev, skip) {
      var q = load(QKEY);
      // Behind the post on its way (its answer may already be on the page): after it.
      var base = q.length ? q[q.length - 1].seq + 1 : (busy && nextSeq !== null ? nextSeq
        : settling ? settledSeq : parseInt(region.dataset.seq || "0", 10));
      // saw: the log length when tapped (a rebase moves seq, not saw): a seat's tap made in its own
      // turn stays in it even if another phone ended that turn meanwhile.
      var item = { id: Date.now().toString(36) + Math.random().toString(36).slice(2, 7), seq: base, saw: base, event: ev };
      if (skip) { item.skip = true; }  // a seat's tap confirmed to pass the turns between
      q.push(item);
      save(QKEY, q);
      redraw();
      flush();
    }

    function unanswered(tap) {
      // A post that got no answer may have been stored: it goes first, marked so the
      // server's log can tell (the same event at its seq is this one).
      var q = load(QKEY);
      q.unshift({ id: Date.now().toString(36), seq: tap.seq, event: tap.event, lost: true });
      save(QKEY, renumber(q, tap.seq));
      redraw();
    }

    function undo() {
      var q = load(QKEY);
      if (!q.length) {
        if (navigator.onLine !== false) { return false; }
        say(T.undo_needs_network);
        return true;
      }
      var last = q[q.length - 1];
      if (sending && sending.id === last.id) { say(T.undo_wait); return true; }
      q.pop();
      save(QKEY, q);
      redraw();
      return true;
    }

    function say(text) {
      redraw();
      var p = el("p", "refusal", text);
      p.setAttribute("role", "alert");
      ($("#queue", region) || $("#pending", region)).after(p);
    }

    function csrf() {
      var input = $("input[name=csrf_token]", region) || $("input[name=csrf_token]");
      return input ? input.value : "";
    }

    function flush() {
      if (sending || busy) { return; }
      var q = load(QKEY);
      if (!q.length) { return; }
      if (navigator.onLine === false) { status = ""; redraw(); return; }
      clearTimeout(timer);
      var item = q[0];
      var lost = !!item.lost;
      item.lost = true;  // until an answer comes back, it may be stored
      save(QKEY, q);
      sending = item;
      status = "";
      redraw();
      fetch(cfg.events, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify({ seq: item.seq, event: item.event, saw: item.saw != null ? item.saw : item.seq, skip: !!item.skip })
      }).then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          sending = null;
          answer(item, lost, r.status, body);
        });
      }).catch(function () {
        sending = null;
        retry("");
      });
    }

    function retry(text) {
      delay = Math.min(delay ? delay * 2 : 1000, 30000);
      status = text || (navigator.onLine === false ? "" : T.pending_retry);
      redraw();
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
    }

    function settle(item, drop, from) {
      // The item is done with (stored or refused): the rest follow it at the server's length.
      var q = load(QKEY).filter(function (it) { return drop.indexOf(it.id) < 0 && it.id !== item.id; });
      save(QKEY, renumber(q, from));
      delay = 0;
      status = "";
      // Until the refreshed region is on the page, a tap queues (its seq is the server's now).
      settling = true;
      settledSeq = from;
      refresh().then(function (swapped) { settling = false; if (!swapped) { redraw(); } flush(); });
    }

    function answer(item, lost, code, body) {
      var err = (body && body.errors && body.errors[0]) || {};
      var q = load(QKEY);
      if (!q.length || q[0].id !== item.id) { redraw(); flush(); return; }  // undone meanwhile
      if (code === 201) { waiting = false; return settle(item, [], body.seq); }
      if (code === 409 && err.code === "waiting_decision") {
        // A seat's tap after a turn whose player is asked go or stop: kept, first in line, and
        // sent again once the answer is on the page (the region's data-decide empties).
        waiting = true;
        status = fill(T.live_waiting_decision, { p: region.dataset.decide || "" });
        q[0].waited = true;
        delete q[0].lost;  // refused, not stored: sent again as it is
        save(QKEY, renumber(q, body.seq));
        return refresh().then(function () { redraw(); });
      }
      if (code === 409 && err.code === "conflict" && Array.isArray(body.events)) {
        if (isStored(body.events, item)) {
          // The server has this very event at its seq: ours (an answer lost), or the same
          // tap recorded by another phone. Either way it is in the log once.
          if (!lost) { note("merged", T.already_recorded + ": " + describe(item.event)); }
          return settle(item, [], item.seq + 1);
        }
        var added = body.seq - item.seq;
        // A tap that waited for a go or stop expects the answer before it: no news to show.
        if (!q[0].waited) { note("conflict", added > 0 ? fill(T.conflict_added, { n: added }) : T.conflict_changed); }
        q.forEach(function (it) { delete it.lost; });
        if (turnMoved(body.events.slice(item.seq)) && !mine(item.event)) {
          // Another phone ended the turn these taps were made in: stored now they would land
          // in the next player's turn. They are refused, each shown; the rest follow.
          var stale = [];
          while (q.length && !is("asks", q[0].event) && !is("answers", q[0].event)) { stale.push(q.shift()); }
          if (q.length && is("asks", q[0].event)) { stale.push(q.shift()); }  // the end of that same turn
          stale.forEach(function (it) { note("refused", fill(T.live_turn_moved, { e: describe(it.event) })); });
        }
        save(QKEY, renumber(q, body.seq));
        return settle({ id: null }, [], body.seq);
      }
      if (code === 422 || code === 409 || code === 404) {
        // Refused: this tap (or, when the hand is over or gone, every one) is not saved.
        var gone = code !== 422 ? q : [item];
        gone.forEach(function (it) { note("refused", T.not_saved + ": " + describe(it.event) + " — " + refusalText(body, code)); });
        return settle(item, gone.map(function (it) { return it.id; }), item.seq);
      }
      delete item.lost;
      if (code === 400 && err.code === "csrf" && !item.freshToken) {
        item.freshToken = true;  // the page's token went stale: fetch the page again, then resend
        q[0] = item;
        save(QKEY, q);
        return refresh().then(flush);
      }
      if (code === 400 || code === 401 || code === 403) {
        status = fill(T.pending_stuck, { m: refusalText(body, code) });
        return redraw();  // kept: sent again when the page is opened or the connection returns
      }
      retry("");  // 5xx, 429: the server is in trouble; keep the tap and try again later
    }

    document.addEventListener("click", function (ev) {
      var b = ev.target.closest("[data-queue-event], [data-dismiss-notes]");
      if (!b || !region.contains(b)) { return; }
      if (b.hasAttribute("data-dismiss-notes")) { save(NKEY, []); redraw(); return; }
      add(JSON.parse(b.getAttribute("data-queue-event")));
    });
    window.addEventListener("online", function () { delay = 0; showOffline(false); flush(); });
    window.addEventListener("offline", function () { showOffline(true); redraw(); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
    overlay();
    flush();
    return { on: true, key: cfg.key, takes: takes, undo: undo, add: add, unanswered: unanswered, flush: flush,
             mark: markCard, text: function (k) { return T[k] || ""; } };
  }());

  // -- the installable app: its service worker, and the kept copy of this page ---------
  var worker = script && script.dataset.sw;
  if (worker && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(worker).catch(function () { /* the app works without it */ });
  }
  var keepTimer = null;
  function keepCopy() {
    // The worker keeps the page as it was loaded; taps since have changed the region. Put
    // the server's latest region into the kept copy, so an offline reload shows it.
    if (!window.caches || !region) { return; }
    clearTimeout(keepTimer);
    keepTimer = setTimeout(function () {
      var url = location.origin + location.pathname + location.search;
      caches.open("sk-pages").then(function (cache) {
        return cache.match(url).then(function (hit) {
          return hit && hit.text().then(function (text) {
            var doc = new DOMParser().parseFromString(text, "text/html");
            var old = doc.getElementById("region");
            var t = document.createElement("template");
            t.innerHTML = served;
            var fresh = t.content.getElementById("region");
            if (!old || !fresh) { return null; }
            $$(".refusal, #held, [data-confirm]", fresh).forEach(function (e) { e.remove(); });
            $$(".flash[role=status]", doc).forEach(function (e) { e.remove(); });
            old.replaceWith(doc.importNode(fresh, true));
            return cache.put(url, new Response("<!doctype html>\n" + doc.documentElement.outerHTML,
              { headers: { "Content-Type": "text/html; charset=utf-8" } }));
          });
        });
      }).catch(function () { /* no copy kept: the next visit keeps one */ });
    }, 500);
  }
  document.addEventListener("sk:swapped", function (ev) { if (!ev.detail.quiet) { keepCopy(); } });

  // -- taps still waiting on this phone for a hand not on screen: never forgotten quietly --
  var tableId = document.body.dataset.table;
  if (tableId) {
    var onScreen = queue.on ? "sk.q." + queue.key : null;
    var queues = "sk.q." + tableId + ".";
    var waiting = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k.indexOf(queues) === 0 && k !== onScreen && JSON.parse(localStorage.getItem(k) || "[]").length) {
          waiting.push(k.slice(queues.length));
        }
      }
    } catch (e) { waiting = []; }
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
  document.addEventListener("submit", function (ev) {
    // Forgetting a table also drops the copies of its pages this phone kept for offline use.
    var form = ev.target, action = form.getAttribute("action") || "";
    if (!window.caches || !/\/t\/[^/]+\/forget$/.test(action)) { return; }
    ev.preventDefault();
    var pages = action.replace(/forget$/, "");
    caches.open("sk-pages").then(function (cache) {
      return cache.keys().then(function (keys) {
        return Promise.all(keys.filter(function (r) { return new URL(r.url).pathname.indexOf(pages) === 0; })
          .map(function (r) { return cache.delete(r); }));
      });
    }).catch(function () {}).then(function () { form.submit(); });
  });

  // -- the rules sheet: a preset sets every option; changes are highlighted ------------
  var presetData = $("#preset-data");
  if (presetData) {
    var presets = JSON.parse(presetData.textContent);
    var presetSelect = $("select[name=preset]");
    var valueOf = function (input) {
      if (input.type === "checkbox") { return input.checked; }
      if (input.type === "number") { return Number(input.value); }
      return input.value;
    };
    var mark = function () {
      var base = presets[presetSelect.value] || {};
      $$(".opt [name^=opt_]").forEach(function (input) {
        var name = input.name.slice(4);
        input.closest(".opt").classList.toggle("changed", valueOf(input) !== base[name]);
      });
    };
    presetSelect.addEventListener("change", function () {
      var base = presets[presetSelect.value] || {};
      $$(".opt [name^=opt_]").forEach(function (input) {
        var v = base[input.name.slice(4)];
        if (input.type === "checkbox") { input.checked = !!v; } else { input.value = v; }
      });
      mark();
    });
    document.addEventListener("input", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
    document.addEventListener("change", function (ev) { if (ev.target.name && ev.target.name.indexOf("opt_") === 0) { mark(); } });
    mark();
    var apply = $("#apply-preset");
    if (apply) { apply.hidden = true; }
  }

  // (quick entry: static/quick.js)

  // -- recent tables on this phone ----------------------------------------------------
  var KEY = "sk.recent";
  function recent() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  var here = document.body.dataset.table;
  if (here) {
    try {
      var list = recent().filter(function (t) { return t.id !== here; });
      list.unshift({ id: here, title: document.body.dataset.title || here, url: window.location.pathname, at: Date.now() });
      localStorage.setItem(KEY, JSON.stringify(list.slice(0, 12)));
    } catch (e) { /* private mode: nothing kept */ }
  }
  var shelf = $("#recent-local");
  if (shelf) {
    var shown = {};
    $$("[data-table-id]").forEach(function (el) { shown[el.dataset.tableId] = true; });
    recent().forEach(function (t) {
      if (shown[t.id] || typeof t.url !== "string" || t.url.indexOf("/t/") !== 0) { return; }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = t.url;
      a.textContent = t.title;
      li.appendChild(a);
      shelf.appendChild(li);
    });
    var empty = $("#recent-empty");
    if (empty && shelf.children.length) { empty.hidden = true; }
  }

  // -- copy buttons for share links ----------------------------------------------------
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-copy]");
    if (!btn || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(btn.dataset.copy).then(function () { btn.classList.add("copied"); });
  });
}());
