"""Invariants of the engine, over many generated hands (Hypothesis)."""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import DECK
from scorekeeper.engine.errors import ERROR_CODES
from scorekeeper.engine.rules import PRESETS
from scorekeeper.engine.scoring import best_score
from scorekeeper.engine.summary.contract import score_summary

CODES = [c.code for c in DECK]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def house_rules(draw) -> dict:
    """Some of the issue-8 house rules turned on (they must keep every invariant)."""
    return draw(
        st.fixed_dictionaries(
            {},
            optional={
                "meong_bak_five": st.booleans(),
                "shake_bomb_once": st.booleans(),
                "meong_dda_per_animal": st.booleans(),
                "reverse_go": st.sampled_from([0, 2, 4]),
                "go_bak_three_players": st.sampled_from(
                    ["dok_bak", "double_own", "dok_bak_doubled", "times_players", "times_players_each"]
                ),
                "payment_cap": st.sampled_from([0, 10, 40, 200]),  # issue 22: 상한가
                "cup_counting": st.sampled_from(["payment", "score"]),
                "payment_cap_per": st.sampled_from(["share", "player"]),  # issue 31
                "empty_pile_pays_nothing": st.booleans(),
            },
        )
    )


@st.composite
def finished_hands(draw):
    """A legal finished hand: cards captured in turn until someone can stop (or the deck runs dry)."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = PRESETS[preset]
    players = ["A", "B", "C"][: draw(st.sampled_from([2, 3]))]
    order = draw(st.permutations(CODES))
    target = rules.target(len(players))
    captures = {p: [] for p in players}
    winner = None
    extra = draw(st.integers(0, 6))
    for i, code in enumerate(order[:42]):
        p = players[i % len(players)]
        captures[p].append(code)
        if winner is None and best_score(captures[p], rules).toward_target >= target:
            winner = p
        if winner is not None:
            if extra == 0:
                break
            extra -= 1
    doc = {
        "rules": {"preset": preset, "options": draw(house_rules())},
        "players": players,
        "captures": captures,
        "nagari_carry": draw(st.integers(0, 3)),
        "chip_value": draw(st.sampled_from([0, 100, 250])),
    }
    if winner is None:
        doc["outcome"] = {"type": "nagari"}
        return doc
    score = best_score(captures[winner], rules).toward_target
    doc["outcome"] = {"type": "stop", "winner": winner}
    doc["gos"] = {winner: draw(st.integers(0, min(score - target, 5)))}
    for loser in players:
        if loser != winner and draw(st.booleans()):
            doc["gos"][loser] = 1
    losers_went = [p for p in players if p != winner and doc["gos"].get(p)]
    if len(losers_went) == 2:
        doc["last_go"] = draw(st.sampled_from(losers_went))
    if draw(st.booleans()):
        doc["shakes"] = {winner: [draw(st.integers(1, 12))]}
    if doc["gos"][winner] and doc["rules"]["options"].get("reverse_go") and draw(st.booleans()):
        doc["reverse_go"] = [winner]
    return doc


def payments(result):
    return {(p["from"], p["to"], p["kind"]): p["points"] for p in result["payments"]}


@FAST
@given(finished_hands())
def test_payments_sum_to_zero(doc):
    result = score_summary(doc)
    assert result["ok"], result
    assert sum(result["net"].values()) == 0
    assert all(p["points"] > 0 and p["from"] != p["to"] for p in result["payments"])
    assert all(p["money"] == p["points"] * doc["chip_value"] for p in result["payments"])


@FAST
@given(
    finished_hands(),
    st.sampled_from(
        ["shake", "carry", "mission", "weol_yak", "meong_bak_five", "meong_dda_per_animal", "dok_bak_doubled"]
    ),
)
def test_doubling_a_factor_never_lowers_a_payment(doc, factor):
    before = score_summary(doc)
    doubled = copy.deepcopy(doc)
    winner = doc["outcome"].get("winner")
    if factor == "shake":
        if not winner:
            return
        taken = set(doc.get("shakes", {}).get(winner, []))
        free = next(m for m in range(1, 13) if m not in taken)
        doubled.setdefault("shakes", {}).setdefault(winner, []).append(free)
    elif factor == "carry":
        doubled["nagari_carry"] += 1
    elif factor == "mission":
        doubled["rules"]["options"] = {**doc["rules"]["options"], "missions": True}
        doubled["mission"] = 2
    elif factor == "weol_yak":
        doubled["rules"]["options"] = {**doc["rules"]["options"], "weol_yak": True}
        doubled["weol_yak"] = [winner] if winner else []
    elif factor == "dok_bak_doubled":
        if (
            doc["rules"]["options"].get("go_bak_three_players", "dok_bak") != "dok_bak"
            or PRESETS[doc["rules"]["preset"]].go_bak_three_players != "dok_bak"
        ):
            return
        doubled["rules"]["options"] = {**doc["rules"]["options"], "go_bak_three_players": "dok_bak_doubled"}
    else:  # an option that only adds a double
        doubled["rules"]["options"] = {**doc["rules"]["options"], factor: True}
    after = score_summary(doubled)
    assert after["ok"], after
    old, new = payments(before), payments(after)
    assert set(old) == set(new)
    assert all(new[key] >= old[key] for key in old)


@FAST
@given(finished_hands(), st.sampled_from([5, 20, 60, 300]))
def test_a_cap_never_raises_a_payment(doc, cap):
    """상한가: no stop payment is above the cap (a dok-bak payer's, above the cap per share it pays), the
    winner never receives more than without it, fixed payments are untouched, and the net is zero."""
    free = copy.deepcopy(doc)
    free["rules"]["options"] = {**doc["rules"]["options"], "payment_cap": 0}
    capped = copy.deepcopy(doc)
    capped["rules"]["options"] = {**doc["rules"]["options"], "payment_cap": cap}
    before, after = score_summary(free), score_summary(capped)
    assert before["ok"] and after["ok"], after
    assert sum(after["net"].values()) == 0
    winner = doc["outcome"].get("winner")
    if winner:
        assert _total_to(after, winner) <= _total_to(before, winner)
    shares = len(doc["players"]) - 1
    per_player = doc["rules"]["options"].get("payment_cap_per") == "player"
    for p in after["payments"]:
        if p["kind"] == "stop":
            assert p["points"] <= cap * shares
            if per_player or not any(s["id"] == "dok_bak" for s in p["trail"]):
                assert p["points"] <= cap
            for step in _steps(p["trail"]):  # the trail says what the cap held back
                if step["id"] == "payment_cap":
                    assert step["value"] == cap < step["before"]
    assert [p for p in after["payments"] if p["kind"] != "stop"] == [
        p for p in before["payments"] if p["kind"] != "stop"
    ]


@FAST
@given(finished_hands(), st.sampled_from([5, 20, 60, 300]), st.sampled_from(["shake", "carry"]))
def test_doubling_never_lowers_a_payment_below_the_cap(doc, cap, factor):
    """Under a cap, a double still never lowers what the winner receives, nor one payment below
    the smaller of its amount before and the cap."""
    doc = copy.deepcopy(doc)
    doc["rules"]["options"] = {**doc["rules"]["options"], "payment_cap": cap}
    before = score_summary(doc)
    doubled = copy.deepcopy(doc)
    winner = doc["outcome"].get("winner")
    if factor == "shake":
        if not winner:
            return
        taken = set(doc.get("shakes", {}).get(winner, []))
        doubled.setdefault("shakes", {}).setdefault(winner, []).append(next(m for m in range(1, 13) if m not in taken))
    else:
        doubled["nagari_carry"] += 1
    after = score_summary(doubled)
    assert before["ok"] and after["ok"], after
    if winner:
        assert _total_to(after, winner) >= _total_to(before, winner)
    old, new = payments(before), payments(after)
    assert set(old) == set(new)
    assert all(new[key] >= min(old[key], cap) for key in old if key[2] == "stop")


def _steps(trail):
    """A trail's steps, a dok-bak share's own trail included."""
    for step in trail:
        yield step
        yield from _steps(step.get("trail", []))


def _total_to(result, winner):
    return sum(p["points"] for p in result["payments"] if p["to"] == winner)


def _paid_by(result, loser):
    return sum(p["points"] for p in result["payments"] if p["from"] == loser)


@FAST
@given(finished_hands())
def test_cup_choice_never_worse_for_its_owner_than_a_fixed_choice(doc):
    owner = next((p for p, cards in doc["captures"].items() if "9a" in cards), None)
    winner = doc["outcome"].get("winner")
    if owner is None or winner is None:
        return
    flexible = score_summary(doc)
    as_animal = copy.deepcopy(doc)
    as_animal["rules"]["options"] = {**doc["rules"]["options"], "cup_flexible": False, "bridge_flexible": False}
    as_junk = copy.deepcopy(as_animal)
    as_junk["captures"][owner].remove("9a")
    as_junk["junk"] = {owner: 2}
    for fixed in (as_animal, as_junk):
        if "5a" in str(doc["captures"]) and PRESETS[doc["rules"]["preset"]].bridge_flexible:
            return  # the bridge would be fixed too: not the same comparison
        result = score_summary(fixed)
        codes = {e["code"] for e in result.get("errors", [])}
        if "too_many_cards" in codes:  # every junk card is listed: no room to give the cup as a number
            continue
        if not result["ok"]:  # this fixed choice would not even allow the stop
            assert owner == winner and codes == {"stop_below_target"}
            continue
        if owner == winner and doc["rules"]["options"].get("cup_counting") == "score":  # the higher score
            assert flexible["scores"][winner]["points"] >= result["scores"][winner]["points"]
            if flexible["scores"][winner]["points"] == result["scores"][winner]["points"]:  # a tie: what is paid
                assert _total_to(flexible, winner) >= _total_to(result, winner)
        elif owner == winner:  # what is finally paid: after go-bak, dok-bak, an empty pile and the cap
            assert _total_to(flexible, winner) >= _total_to(result, winner)
        else:
            assert _paid_by(flexible, owner) <= _paid_by(result, owner)


@FAST
@given(finished_hands(), st.data())
def test_after_a_go_the_cup_choice_always_passes_the_stop_check(doc, data):
    """rules.md §13 reading 1: with the score at the last go known, the winner's counting is always above it."""
    winner = doc["outcome"].get("winner")
    if winner is None or not doc["gos"].get(winner):
        return
    if "9a" not in doc["captures"][winner] and data.draw(st.booleans()):
        for cards in doc["captures"].values():  # hand the cup to the winner, often
            if "9a" in cards:
                cards.remove("9a")
        doc["captures"][winner].append("9a")
    rules = PRESETS[doc["rules"]["preset"]]
    best = best_score(doc["captures"][winner], rules).toward_target
    last = data.draw(st.integers(0, best))
    doc["score_at_last_go"] = {winner: last}
    result = score_summary(doc)
    needed = max(last + 1, rules.target(len(doc["players"])) + doc["gos"][winner])
    if best < needed:
        assert not result["ok"] and result["errors"][0]["code"] == "stop_below_target"
    else:
        assert result["ok"], result
        assert result["scores"][winner]["toward_target"] >= needed


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=20,
)
KEYS = [
    "rules",
    "players",
    "captures",
    "junk",
    "gos",
    "shakes",
    "bombs",
    "outcome",
    "dokbak",
    "showdown",
    "fixed",
    "mission",
    "weol_yak",
    "chip_value",
    "nagari_carry",
    "dealer",
    "last_go",
    "score_at_last_go",
    "reverse_go",
]


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_json_gets_a_coded_answer(doc):
    result = score_summary(doc)
    assert result["ok"] is False
    assert all(e["code"] in ERROR_CODES for e in result["errors"])


NESTED = [
    "rules.preset",
    "rules.options",
    "outcome.type",
    "outcome.winner",
    "outcome.winners",
    "captures.A",
    "gos.A",
    "shakes.A",
    "dokbak.player",
    "dokbak.reason",
    "showdown.offered_by",
    "junk.B",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_hands(), st.sampled_from(KEYS + NESTED), JSON)
def test_any_field_replaced_by_junk_gets_a_coded_answer(doc, key, value):
    if "." in key:
        outer, inner = key.split(".")
        if not isinstance(doc.get(outer), dict):
            doc[outer] = {}
        doc[outer][inner] = value
    else:
        doc[key] = value
    result = score_summary(doc)
    assert isinstance(result["ok"], bool)
    if not result["ok"]:
        assert all(e["code"] in ERROR_CODES for e in result["errors"])
    else:
        assert sum(result["net"].values()) == 0


PPUK_CHAIN = ("first_turn_ppuk", "consecutive_ppuk", "three_consecutive_ppuk")


@FAST
@given(
    st.sampled_from([["A", "B"], ["A", "B", "C"]]),
    st.sampled_from(["replace", "each"]),
    st.tuples(*(st.sampled_from([0, 3, 7, 14, 21]) for _ in PPUK_CHAIN)),
    st.integers(1, 3),
    st.sampled_from([0, 5, 7]),
)
def test_the_ppuk_chain_pays_its_links_from_each_opponent_and_balances(players, chain, amounts, length, three_ppuk):
    """Issue 31: under `each` every paid link of the chain, under `replace` the longest paid link alone,
    from each opponent, never multiplied (a nagari carry changes nothing); the net is zero."""
    options = dict(zip(PPUK_CHAIN, amounts, strict=True)) | {"ppuk_chain": chain, "three_ppuk": three_ppuk}
    links = [k for k in PPUK_CHAIN[:length] if options[k]]
    given = links if chain == "each" else links[-1:]
    won = length == 3 and three_ppuk and "three_consecutive_ppuk" in given
    doc = {
        "rules": {"options": options},
        "players": players,
        "outcome": {"type": "three_ppuk", "winner": "A"} if won else {"type": "nagari"},
        "fixed": [{"kind": k, "player": "A"} for k in given],
        "nagari_carry": 2,
    }
    result = score_summary(doc)
    assert result["ok"], result
    each = sum(options[k] for k in given) + (three_ppuk if won else 0)
    assert result["net"]["A"] == each * (len(players) - 1)
    assert sum(result["net"].values()) == 0
