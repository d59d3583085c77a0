/* The offline queue's pure parts: no DOM, no storage, no network (tests/js runs them in node).
   The rules and words come with the page (liveview.offline_data, passed in as cfg): the
   engine's turn rules (cfg.turn) and the server's log-line templates (cfg.lines), so none is
   written here twice. */

export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] != null ? values[k] : m; });
}

// Does the engine put this event in the set (cfg.turn: passes, asks, answers, ends)?
export function is(rules, set, ev) { return !!ev && rules[set].indexOf(ev.type) >= 0; }

export function own(map, key) { return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : null; }  // names are data

// A template of the log's words (web/hands/eventlines.py): {field} or {field:table};
// null when the event has not that field, so the next alternative is tried.
function present(v) { return !!v && !(typeof v === "object" && !Object.keys(v).length); }
function show(v, table) {
  if (Array.isArray(v)) { return v.map(function (x) { return show(x, table); }).join(", "); }
  if (v && typeof v === "object") { return Object.keys(v).map(function (k) { return k + " " + show(v[k]); }).join(", "); }
  const text = String(v);
  const named = table && own(table, text);
  return named != null ? named : text;
}
function template(cfg, text, values) {
  const re = /\{(\w+)(?::(\w+))?\}/g;
  let m;
  while ((m = re.exec(text))) { if (!present(values[m[1]])) { return null; } }
  return text.replace(re, function (all, name, table) { return show(values[name], table ? cfg[table] : null); });
}
function first(cfg, alternatives, values) {
  for (let i = 0; i < alternatives.length; i++) {
    const text = template(cfg, alternatives[i], values);
    if (text !== null) { return text; }
  }
  return null;
}

export function describe(cfg, ev) {
  // The line the server's log will show for this event (eventlines.write, the same templates).
  const L = cfg.lines, values = Object.assign({ type: "?" }, ev);
  const parts = (own(L.types, values.type) || L.types["*"]).map(function (alts) { return first(cfg, alts, values); })
    .filter(function (p) { return p !== null; });
  return first(cfg, L.line, Object.assign({}, values, { pieces: parts.join(L.join) })) || "";
}

export function canonical(rules, ev) {
  const keys = Object.keys(ev || {}).filter(function (k) { return rules.ignored.indexOf(k) < 0; }).sort();
  return JSON.stringify(keys.map(function (k) {
    return [k, k === "cards" && Array.isArray(ev[k]) ? ev[k].slice().sort() : ev[k]];
  }));
}

export function refusalText(cfg, body, status) {
  const e = body && body.errors && body.errors[0];
  if (!e) { return "HTTP " + status; }
  // Korean phones read the catalogue's sentence (the engine's own is English), as refusal() on the server.
  return cfg.refuse[e.code] || cfg.refuse.generic || e.message;
}

// seat: the player this phone is seated as ("" when none): its taps are its own.
export function mine(seat, ev) { return !!seat && !!ev && ev.player === seat; }

export function isStored(rules, seat, events, item) {
  // At its seq, or (a seat's tap) after the turn ends the server stored before it.
  for (let i = item.seq; i < events.length && i <= item.seq + 3; i++) {
    if (canonical(rules, events[i]) === canonical(rules, item.event)) { return true; }
    if (!mine(seat, item.event) || !is(rules, "asks", events[i])) { return false; }
  }
  return false;
}

export function turnMoved(rules, events) {
  // The log another phone added: did play move on in it (an end of turn, or a go)?
  return events.some(function (e) { return is(rules, "passes", e); });
}

export function renumber(q, from) {
  q.forEach(function (it, i) { it.seq = from + i; });
  return q;
}

// A post that got no answer may have been stored: its taps go first, marked lost so the server's
// log can tell (the same event at its seq is this one). item: one tap of the post, {id, seq, event},
// put back one at a time in the post's order (a turn's end and its go or stop are one post): each
// after those of the same post already put back, not before them.
export function putBack(q, item) {
  let at = 0;
  while (at < q.length && q[at].lost && q[at].seq < item.seq) { at++; }
  q.splice(at, 0, Object.assign({}, item, { lost: true }));
  return renumber(q, q[0].seq);
}

export function eventsOf(data, form) {
  // The form's fields as the server's event_from() reads them: only those the event's type takes
  // (form.fields, the engine's), each read as form.kinds says. "then" (Go or Stop on the End
  // turn bar) is the player's answer: a second event.
  const ev = {}, type = data.get("type");
  if (type) { ev.type = type; }
  (own(form.fields, type) || []).forEach(function (name) {
    const kind = own(form.kinds, name);
    const values = data.getAll(name).filter(function (v) { return v !== ""; });
    if (!kind || !values.length) { return; }
    if (kind === "list") {
      ev[name] = values.filter(function (v, i) { return values.indexOf(v) === i; });
    } else if (kind === "int") { ev[name] = parseInt(values[0], 10); } else if (kind === "flag") {
      ev[name] = true;
    } else { ev[name] = values[0]; }
  });
  const then = data.get("then");
  return then ? [ev, { type: then, player: ev.player }] : [ev];
}

// Whose turn it will be once the pending taps are stored, from the engine's turn rules on the page
// (rules.next, asks, answers, passes, ends) and the server's view: the player on turn (current),
// the one asked go or stop (deciding), those the engine would ask on the score it knows (mayDecide).
// ask: the player to offer go or stop to, when the last tap ended a turn. Go or stop may have been
// asked only of one the engine would ask or who took cards it has not scored yet: never of one who
// took nothing.
export function predict(rules, events, current, deciding, mayDecide) {
  let asked = null, over = false;
  const took = {};
  events.forEach(function (e) {
    if (e.cards) { took[e.player] = true; }  // the cards an event names are its player's (a capture)
    if (is(rules, "asks", e) && !deciding && current) {
      asked = e.player || current;
      current = own(rules.next, asked);  // unless go or stop is asked: then the answer says
    } else if (is(rules, "answers", e) && (e.player === deciding || e.player === asked)) {
      if (is(rules, "passes", e)) { current = own(rules.next, e.player); }
      deciding = null;
      asked = null;
    } else { asked = null; }
    if (is(rules, "ends", e)) { over = true; }
  });
  const last = events[events.length - 1];
  const ask = asked && is(rules, "asks", last) && (mayDecide.indexOf(asked) >= 0 || own(took, asked)) ? asked : null;
  return { current: current, deciding: deciding, asked: asked, over: over, ask: ask };
}
