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
  function checkedCards() {
    return $$("input[name=cards]:checked", region).map(function (i) { return i.value; });
  }

  // quiet: a redraw of what the server sent last (to lay the pending taps over it again)
  function swap(html, quiet) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.getElementById("region");
    if (!fresh || !region) { return false; }
    served = fresh.outerHTML;
    var keep = checkedCards();
    var open = $$("details[id][open]", region).map(function (d) { return d.id; });
    region.replaceWith(fresh);
    region = fresh;
    keep.forEach(function (code) {
      var box = region.querySelector("input[name=cards][value='" + code + "']");
      if (box && !box.disabled) { box.checked = true; }
    });
    open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
    var prompt = region.querySelector(".prompt, .refusal");
    if (!quiet && prompt && prompt.getBoundingClientRect().top < 0) { prompt.scrollIntoView({ block: "start" }); }
    document.dispatchEvent(new CustomEvent("sk:swapped", { detail: { quiet: !!quiet } }));
    return true;
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
  function post(url, data, tap) {
    setBusy(true);
    return fetch(url, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Partial": "1", "Accept": "text/html" }
    }).then(function (r) {
      return r.text().then(function (text) {
        if (!swap(text)) { window.location.reload(); }
      });
    }).catch(function () {
      showOffline(true);
      if (tap) { queue.unanswered(tap); }
    }).then(function () { setBusy(false); queue.flush(); });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches("form[data-live]") || !window.fetch || !region) { return; }
    ev.preventDefault();
    var data = new FormData(form, ev.submitter || undefined);
    if (form.hasAttribute("data-with-cards")) {
      // The capture buttons live in their own form; the picked cards are in the picker.
      checkedCards().forEach(function (code) { data.append("cards", code); });
    }
    if (form.hasAttribute("data-undo") && queue.undo()) { return; }
    if (!form.hasAttribute("data-undo") && queue.takes()) { queue.add(eventOf(data)); return; }
    if (busy) { return; }
    var tap = form.hasAttribute("data-undo") || !queue.on ? null : { seq: parseInt(data.get("seq"), 10), event: eventOf(data) };
    // Cards on their way are not picked again by a tap made before the answer comes back.
    $$("input[name=cards]:checked", region).forEach(function (i) { i.disabled = true; });
    post(form.getAttribute("action"), data, tap);
  });

  // -- live updates: poll the table's version, refresh the region when it moves ---------
  function refresh() {
    if (!region || !region.dataset.refresh) { return Promise.resolve(false); }
    return fetch(region.dataset.refresh, { credentials: "same-origin", headers: { "X-Partial": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) { return text ? swap(text) : false; })
      .catch(function () { return false; /* offline: the next poll tries again */ });
  }

  function poll() {
    if (!region || !region.dataset.poll || busy || document.hidden) { return; }
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

  if (region && region.dataset.poll) {
    setInterval(poll, parseInt(region.dataset.interval || "1500", 10));
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }

  // -- offline: taps kept on this phone, sent in order when the connection is back ------
  // Each tap is queued with the log length (seq) it was made against and sent to the API
  // one by one. The server's log wins: a stale seq (409) re-bases the queue after the
  // other phone's events, and the engine then takes or refuses each tap; a refused one
  // leaves the queue and is shown as "not saved", never dropped silently.
  function eventOf(data) {
    // The form's fields as the server's event_from() reads them: only those the form has.
    var ev = {};
    data.forEach(function (value, name) {
      if (name === "csrf_token" || name === "seq" || value === "") { return; }
      if (name === "cards") {
        ev.cards = ev.cards || [];
        if (ev.cards.indexOf(value) < 0) { ev.cards.push(value); }
      } else if (name === "month") { ev.month = parseInt(value, 10); } else if (name === "last_card") {
        ev.last_card = true;
      } else { ev[name] = value; }
    });
    return ev;
  }

  var queue = (function () {
    var dataEl = $("#live-data");
    var cfg = null;
    try { cfg = dataEl ? JSON.parse(dataEl.textContent) : null; } catch (e) { cfg = null; }
    if (!cfg || !region || !window.fetch) {
      return { on: false, takes: function () { return false; }, undo: function () { return false; },
               add: function () {}, unanswered: function () {}, flush: function () {} };
    }
    var T = cfg.text, QKEY = "sk.q." + cfg.key, NKEY = "sk.notes." + cfg.key;
    var memory = {};      // when localStorage is refused (private mode), this page keeps them
    var sending = null;   // the item on its way to the server
    var timer = null, delay = 0, status = "", listOpen = false, fresh = false;

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
    function describe(ev) {
      var parts = [cfg.labels[ev.type] || ev.type];
      if (ev.cards) { parts.push(ev.cards.join(" ")); }
      if (ev.month) { parts.push(ev.month + "월"); }
      if (ev.reason) { parts.push(cfg.junk[ev.reason] || ev.reason); }
      return (ev.player ? ev.player + ": " : "") + parts.join(" · ");
    }
    function canonical(ev) {
      var keys = Object.keys(ev || {}).filter(function (k) { return ["note", "at", "by", "id", "seq"].indexOf(k) < 0; }).sort();
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
      var ko = cfg.refuse[e.code];
      return ko ? ko + " (" + e.message + ")" : e.message;
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
          bar.firstElementChild.append(" ", warn);
        }
        if (fresh && box.getBoundingClientRect().top < 0) { box.scrollIntoView({ block: "start" }); }
        fresh = false;
      }
      if (!q.length && !(offline && bar)) { return; }

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
      anchor.after(panel);
      if (q.length) { layOver(q, panel); }
      if (bar && q.length) {
        var badge = el("a", "badge pending-count", q.length + " " + T.pending);
        badge.href = "#queue";
        bar.firstElementChild.append(" ", badge);
      }
    }

    function layOver(q, panel) {
      // Cards taken by pending captures, the pending log lines, whose turn it will be.
      var order = $$("section.player[data-player]", region).map(function (s) { return s.dataset.player; });
      var current = region.dataset.current || null, deciding = region.dataset.decide || null;
      var asked = null, over = false, ask = null;
      var log = $("#log ol", region);
      q.forEach(function (it) {
        var e = it.event;
        if (e.type === "capture") { (e.cards || []).forEach(function (c) { markCard(c, e.player); }); }
        if (e.type === "end_turn" && !deciding && current) {
          asked = e.player || current;
          current = order[(order.indexOf(asked) + 1) % order.length];
        } else if ((e.type === "go" || e.type === "stop") && e.player === deciding) {
          if (e.type === "go") { current = order[(order.indexOf(deciding) + 1) % order.length]; }
          deciding = null;
          asked = null;
        } else { asked = null; }
        if (["stop", "nagari", "chongtong", "four_on_table"].indexOf(e.type) >= 0) { over = true; }
        if (log) {
          var li = el("li", "pend", describe(e));
          li.appendChild(el("span", "tag", T.pending));
          log.insertBefore(li, log.firstChild);
        }
      });
      var hint = el("p", "hint", over ? T.pending_over : T.pending_scores);
      panel.appendChild(hint);
      if (asked && q[q.length - 1].event.type === "end_turn") {
        ask = el("div", "actions ask");
        ask.appendChild(el("span", "muted", fill(T.pending_ask, { p: asked })));
        ["go", "stop"].forEach(function (t) {
          var b = el("button", "btn " + t, T[t]);
          b.type = "button";
          b.setAttribute("data-queue-event", JSON.stringify({ type: t, player: asked }));
          ask.appendChild(b);
        });
      }
      var prompt = $(".prompt", region);
      if (prompt && !deciding && region.dataset.decide) { prompt.hidden = true; }
      var endTurn = formFor("end_turn");
      // Where the thumb is: just above the End turn button that was tapped.
      if (ask) { if (endTurn) { endTurn.before(ask); } else { panel.appendChild(ask); } }
      if (endTurn && current && !over) {
        endTurn.hidden = !!deciding;
        endTurn.querySelector("input[name=player]").value = current;
        endTurn.querySelector("button").textContent = T.end_turn + " · " + current;
      }
      if (current && current !== region.dataset.current) {
        var capture = formFor("capture");
        $$("button[name=player]", capture || region).forEach(function (b) {
          b.classList.toggle("primary", b.value === current);
        });
        $$("section.player .badge.turn", region).forEach(function (b) { b.remove(); });
        var who = $("section.player[data-player='" + CSS.escape(current) + "'] header > span", region);
        if (who) { who.append(" ", el("span", "badge turn pend", "▶")); }
        var turn = $(".turn-bar > span", region);
        if (turn) { turn.append(" ", el("span", "pend", "→ " + current + " ▶")); }
      }
    }

    function formFor(type) {
      var input = $("form[data-live] input[name=type][value=" + type + "]", region);
      return input ? input.form : null;
    }

    function markCard(code, player) {
      var box = $("input[name=cards][value='" + CSS.escape(code) + "']", region);
      var label = box && box.closest("label.hc");
      var section = $("section.player[data-player='" + CSS.escape(player || "") + "']", region);
      if (!label || box.disabled) { return; }
      var seat = section ? (section.className.match(/\bp\d\b/) || [""])[0] : "";
      box.checked = false;
      box.disabled = true;
      label.classList.add("taken", "pend");
      if (seat) { label.classList.add(seat); }
      label.appendChild(el("span", "owner", (player || "?").charAt(0)));
      if (!section) { return; }
      var face = el("span", label.className.replace(/\b(taken|p\d)\b/g, ""));
      $$("span:not(.owner)", label).forEach(function (s) { face.appendChild(s.cloneNode(true)); });
      var row = $(".pile.pend", section) || $(".piles", section).appendChild(el("div", "pile pend"));
      if (!row.children.length) {
        row.appendChild(el("span", "kind", T.pending));
        row.appendChild(el("span", "cards"));
      }
      row.querySelector(".cards").appendChild(face);
      var points = $("[data-points]", section);
      if (points) { points.classList.add("stale"); }
    }

    function redraw() { swap(served, true); }
    document.addEventListener("sk:swapped", overlay);

    // -- sending ------------------------------------------------------------------------
    function takes() {
      // Once one tap waits, every later one queues behind it: the order is the log's.
      return load(QKEY).length > 0 || sending !== null || busy || navigator.onLine === false;
    }

    function add(ev) {
      var q = load(QKEY);
      var base = q.length ? q[q.length - 1].seq + 1 : parseInt(region.dataset.seq || "0", 10) + (busy ? 1 : 0);
      q.push({ id: Date.now().toString(36) + Math.random().toString(36).slice(2, 7), seq: base, event: ev });
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
        body: JSON.stringify({ seq: item.seq, event: item.event })
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
      refresh().then(function (swapped) { if (!swapped) { redraw(); } flush(); });
    }

    function answer(item, lost, code, body) {
      var err = (body && body.errors && body.errors[0]) || {};
      var q = load(QKEY);
      if (!q.length || q[0].id !== item.id) { redraw(); flush(); return; }  // undone meanwhile
      if (code === 201) { return settle(item, [], body.seq); }
      if (code === 409 && err.code === "conflict" && Array.isArray(body.events)) {
        if (canonical(body.events[item.seq]) === canonical(item.event)) {
          // The server has this very event at its seq: ours (an answer lost), or the same
          // tap recorded by another phone. Either way it is in the log once.
          if (!lost) { note("merged", T.already_recorded + ": " + describe(item.event)); }
          return settle(item, [], item.seq + 1);
        }
        var added = body.seq - item.seq;
        note("conflict", added > 0 ? fill(T.conflict_added, { n: added }) : T.conflict_changed);
        q.forEach(function (it) { delete it.lost; });
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
    return { on: true, key: cfg.key, takes: takes, undo: undo, add: add, unanswered: unanswered, flush: flush };
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
            $$(".refusal", fresh).forEach(function (e) { e.remove(); });
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
      a.textContent = "대기 중인 기록이 있습니다 · taps not sent yet: 판 열기 · open the hand";
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
