// The offline queue's pure parts (static/js/queue-core.js), run by node's own test runner:
//   node --experimental-default-type=module --test tests/js/
// (tests/web/test_script_modules.py runs it under pytest). The cfg below has the shape of the
// live page's #live-data (liveview.offline_data); the real one is checked against the server's
// log in test_script_modules.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as core from "../../static/js/queue-core.js";

const RULES = {
  next: { A: "B", B: "C", C: "A" },
  passes: ["end_turn", "go"], asks: ["end_turn"], answers: ["go", "stop"], ends: ["stop", "nagari"],
  ignored: ["at", "by"],
};
const CFG = {
  lines: {
    types: {
      capture: [["{type:labels}"], ["{cards:cards}"]],
      shake: [["{month}월 흔들기", "{type:labels}"]],
      "*": [["{type:labels}"], ["{cards:cards}"], ["{month:months}"]],
    },
    join: " · ",
    line: ["{player}: {pieces}", "{pieces}"],
  },
  labels: { capture: "먹음", shake: "흔들기", end_turn: "턴 끝" },
  cards: { "1g": "송학 광", "3g": "벚꽃 광" },
  months: { 7: "7월" },
  refuse: { not_your_turn: "차례가 아닙니다", generic: "거절" },
};

test("fill puts values in their places and leaves unknown ones", () => {
  assert.equal(core.fill("{n}개 대기 · {p}", { n: 2 }), "2개 대기 · {p}");
  assert.equal(core.fill("{n}", { n: 0 }), "0");
});

test("describe writes a pending tap as the log will", () => {
  assert.equal(core.describe(CFG, { type: "capture", player: "A", cards: ["1g", "3g"] }), "A: 먹음 · 송학 광, 벚꽃 광");
  assert.equal(core.describe(CFG, { type: "shake", player: "B", month: 7 }), "B: 7월 흔들기");
  assert.equal(core.describe(CFG, { type: "shake", player: "B" }), "B: 흔들기");  // no month: the next alternative
  assert.equal(core.describe(CFG, { type: "end_turn" }), "턴 끝");  // no player: the line without it
  assert.equal(core.describe(CFG, { type: "mystery", month: 7 }), "mystery · 7월");  // a type it does not know
  assert.equal(core.describe(CFG, { type: "capture", player: "A", cards: [] }), "A: 먹음");  // an empty list is no value
});

test("describe treats names as data (no inherited property is a label)", () => {
  assert.equal(core.describe(CFG, { type: "constructor", player: "A" }), "A: constructor");
  assert.equal(core.own({}, "toString"), null);
});

test("canonical ignores the meta fields and the order of cards", () => {
  const a = { type: "capture", player: "A", cards: ["3g", "1g"], at: 1 };
  const b = { cards: ["1g", "3g"], player: "A", type: "capture", by: "x" };
  assert.equal(core.canonical(RULES, a), core.canonical(RULES, b));
  assert.notEqual(core.canonical(RULES, a), core.canonical(RULES, { type: "capture", player: "B", cards: ["1g", "3g"] }));
});

test("is reads the engine's sets from the page", () => {
  assert.equal(core.is(RULES, "asks", { type: "end_turn" }), true);
  assert.equal(core.is(RULES, "asks", { type: "go" }), false);
  assert.equal(core.is(RULES, "passes", null), false);
});

test("isStored: the same event at its seq, or a seat's tap after the turn end stored before it", () => {
  const tap = { type: "capture", player: "B", cards: ["1g"] };
  const log = [{ type: "capture", player: "A", cards: ["3g"] }, { type: "end_turn", player: "A" }, tap];
  assert.equal(core.isStored(RULES, "", log, { seq: 2, event: tap }), true);
  assert.equal(core.isStored(RULES, "", log, { seq: 1, event: tap }), false);  // not a seat: only at its seq
  assert.equal(core.isStored(RULES, "B", log, { seq: 1, event: tap }), true);  // B's own tap, after A's end of turn
  assert.equal(core.isStored(RULES, "B", log, { seq: 0, event: tap }), false);  // a capture in between: not it
  assert.equal(core.isStored(RULES, "", log, { seq: 3, event: tap }), false);  // beyond the log
});

test("turnMoved: an end of turn or a go in the events another phone added", () => {
  assert.equal(core.turnMoved(RULES, [{ type: "capture" }, { type: "go" }]), true);
  assert.equal(core.turnMoved(RULES, [{ type: "capture" }, { type: "stop" }]), false);
  assert.equal(core.turnMoved(RULES, []), false);
});

test("renumber puts the queue after the server's log, in order", () => {
  const q = [{ id: "a", seq: 3 }, { id: "b", seq: 9 }];
  assert.equal(core.renumber(q, 5), q);
  assert.deepEqual(q.map((it) => it.seq), [5, 6]);
});

test("putBack: the taps of a post that got no answer go first, in their order, before the taps made meanwhile", () => {
  // A turn's end and its go (one tap on the Go button: two events) posted at seq 5; a capture
  // tapped while the post was on its way waits behind it. The post fails: each of its taps is put back.
  const q = [{ id: "c", seq: 7, event: { type: "capture", player: "B", cards: ["1g"] } }];
  core.putBack(q, { id: "e", seq: 5, event: { type: "end_turn", player: "A" } });
  core.putBack(q, { id: "g", seq: 6, event: { type: "go", player: "A" } });
  assert.deepEqual(q.map((it) => [it.id, it.seq, !!it.lost]), [["e", 5, true], ["g", 6, true], ["c", 7, false]]);
});

test("putBack: a single tap goes before the taps made meanwhile", () => {
  const q = [{ id: "c", seq: 1, event: { type: "capture", player: "A", cards: ["3g"] } }];
  core.putBack(q, { id: "a", seq: 0, event: { type: "capture", player: "A", cards: ["1g"] } });
  assert.deepEqual(q.map((it) => [it.id, it.seq, !!it.lost]), [["a", 0, true], ["c", 1, false]]);
});

test("mine: only a seated phone's own player", () => {
  assert.equal(core.mine("B", { player: "B" }), true);
  assert.equal(core.mine("B", { player: "A" }), false);
  assert.equal(core.mine("", { player: "" }), false);
});

test("refusalText: the catalogue's sentence for the code, else the generic one, else the server's", () => {
  const body = (code) => ({ errors: [{ code, message: "engine says" }] });
  assert.equal(core.refusalText(CFG, body("not_your_turn"), 422), "차례가 아닙니다");
  assert.equal(core.refusalText(CFG, body("other"), 422), "거절");
  assert.equal(core.refusalText({ refuse: {} }, body("other"), 422), "engine says");  // English phones
  assert.equal(core.refusalText(CFG, {}, 503), "HTTP 503");
});

// The page's form rules (liveview.form_rules): the fields each type takes, how each reads.
const FORM = {
  fields: { capture: ["cards", "player"], shake: ["month", "player"], mission: ["multiplier"],
    oe_myeon: ["last_card", "player"], end_turn: ["player"] },
  kinds: { player: "text", cards: "list", month: "int", multiplier: "int", last_card: "flag" },
};

test("eventsOf reads a form as the server's event_from does: only the fields the type takes", () => {
  const form = (pairs) => { const d = new FormData(); pairs.forEach(([k, v]) => d.append(k, v)); return d; };
  assert.deepEqual(core.eventsOf(form([["csrf_token", "x"], ["seq", "4"], ["type", "capture"], ["player", "A"],
    ["cards", "1g"], ["cards", "3g"], ["cards", "1g"], ["month", "3"]]), FORM),
    [{ type: "capture", player: "A", cards: ["1g", "3g"] }]);  // no month: a capture takes none
  assert.deepEqual(core.eventsOf(form([["type", "shake"], ["player", "B"], ["month", "7"]]), FORM),
    [{ type: "shake", player: "B", month: 7 }]);
  assert.deepEqual(core.eventsOf(form([["type", "mission"], ["multiplier", "2"], ["last_card", "on"], ["skip", "1"]]), FORM),
    [{ type: "mission", multiplier: 2 }]);
  assert.deepEqual(core.eventsOf(form([["type", "oe_myeon"], ["player", ""], ["last_card", "y"]]), FORM),
    [{ type: "oe_myeon", last_card: true }]);  // an empty field is no value
  assert.deepEqual(core.eventsOf(form([["type", "toString"], ["player", "A"]]), FORM), [{ type: "toString" }]);
  // Go or Stop on the End turn bar: the answer is a second event.
  assert.deepEqual(core.eventsOf(form([["type", "end_turn"], ["player", "A"], ["then", "go"]]), FORM),
    [{ type: "end_turn", player: "A" }, { type: "go", player: "A" }]);
});

test("predict: the turn moves as the engine's rules on the page say", () => {
  const taps = [{ type: "capture", player: "A", cards: ["1g"] }, { type: "end_turn", player: "A" }];
  // A took cards the server has not scored: the question is offered, the turn is B's unless A says go or stop.
  assert.deepEqual(core.predict(RULES, taps, "A", null, []), { current: "B", deciding: null, asked: "A", over: false, ask: "A" });
  // A took nothing and the engine would not ask A: no question.
  assert.equal(core.predict(RULES, [{ type: "end_turn", player: "A" }], "A", null, []).ask, null);
  // ... unless the scores say the engine would (data-may-decide).
  assert.equal(core.predict(RULES, [{ type: "end_turn", player: "A" }], "A", null, ["A"]).ask, "A");
  // The answer: go passes the turn on from the one who said it; stop ends the hand.
  const go = core.predict(RULES, [...taps, { type: "go", player: "A" }], "A", null, []);
  assert.deepEqual([go.current, go.ask, go.over], ["B", null, false]);
  const stop = core.predict(RULES, [...taps, { type: "stop", player: "A" }], "A", null, []);
  assert.deepEqual([stop.current, stop.over], ["B", true]);
  // While the server waits for C's answer, an end of turn asks nothing; C's go settles it.
  const waiting = core.predict(RULES, [{ type: "end_turn", player: "C" }], "A", "C", []);
  assert.deepEqual([waiting.current, waiting.deciding, waiting.ask], ["A", "C", null]);
  const answered = core.predict(RULES, [{ type: "go", player: "C" }], "C", "C", []);
  assert.deepEqual([answered.current, answered.deciding], ["A", null]);
  // An end of turn with no player is the player on turn's.
  assert.equal(core.predict(RULES, [{ type: "end_turn" }], "B", null, ["B"]).current, "C");
  // Names are data: a player called like an inherited property is no one's next.
  assert.equal(core.predict(RULES, [{ type: "end_turn", player: "constructor" }], "A", null, []).current, null);
});
