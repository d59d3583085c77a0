"""오류 The engine's refusals: one exception carrying named, documented codes.

Every refusal of rules.md §12 has a code here; tests assert the code, the UI
shows the message. ``path`` points into the input (``captures.B[0]``).
"""

from __future__ import annotations

ERROR_CODES: dict[str, str] = {
    "invalid_json": "The input is not valid JSON.",
    "bad_summary": "The hand summary is not a JSON object of the documented shape.",
    "bad_value": "A field has the wrong type or is out of range.",
    "unknown_preset": "No preset has that name.",
    "unknown_option": "No house-rule option has that name.",
    "bad_option": "A house-rule option was given a value it does not take.",
    "bad_players": "A hand needs two or three distinct, named players.",
    "unknown_player": "A player named in the hand is not one of its players.",
    "unknown_card": "A card code that is not in the deck.",
    "card_twice": "A card captured twice, by two players or by one.",
    "too_many_cards": "More cards (or junk) than the deck holds.",
    "bonus_not_in_rules": "A bonus card that the table's rules do not include.",
    "unknown_outcome": "The outcome type is not one the engine knows.",
    "missing_winner": "A stop or instant win names no winner.",
    "winner_in_nagari": "A nagari or void deal has no winner.",
    "payment_in_void_deal": "A void deal carries no payment.",
    "stop_below_target": "The winner's score is below the target, or below target + gos.",
    "rule_off": "The house rules of the table do not play that rule.",
    "bad_month": "A month must be a whole number from 1 to 12.",
    "shake_twice": "The same month shaken twice by one player.",
    "bomb_cards_missing": "A bomb month whose bright/animal/ribbon cards the bomber did not capture.",
    "bomb_after_shake": "A bomb of a month already shown as a shake.",
    "dokbak_needs_three": "Dok-bak exists only in a three-player hand won by a stop.",
    "dokbak_is_winner": "The dok-bak payer cannot be the winner.",
    "go_bak_without_go": "Go-bak dok-bak names a loser who said no go.",
    "go_bak_ambiguous": "Both losers said go: say whose go came last.",
    "unknown_fixed": "An unknown kind of fixed payment.",
    # The live hand and the series (engine/live/, engine/series/).
    "hand_over": "The hand has ended: no more events.",
    "not_eligible": "That player may not go or stop now.",
    "must_decide": "A player must first say go or stop.",
    "junk_not_held": "Junk surrendered by a player who does not hold that card.",
    "bad_event": "An event of an unknown kind or shape.",
    "nothing_to_undo": "The log is empty, or holds no event of the player named.",
    "takeback_breaks_log": "Taking back that event would make a later event of the log invalid (its index is named).",
    "conflict": "Someone else changed this first: the view is refreshed.",
    "not_at_deal": "Chongtong and four of a month on the table are declared at the deal, before play.",
    "not_your_turn": "It is another player's turn, or the turn has already begun.",
    "skip_turns": "A seat's tap would end more than one turn: the phone confirms it first.",
    "waiting_decision": "A seat's tap waits: the player before must first say go or stop.",
    "must_answer": "A player must first answer the showdown.",
    "no_showdown": "No showdown is waiting for an answer.",
    "showdown_needs_three": "A showdown (쇼당) is offered only at a three-player hand.",
    "last_turn": "On the last player's last turn sseul, ttadak and chok take no junk.",
    "not_weol_yak": "Weol-yak (월약) is taking all four cards of a month on one's first turn.",
    "not_own_stack": "Ja-ppuk (자뻑) captures one's own stack; the log shows the stack is another player's.",
    "unknown_field": "A field the engine does not know (it would be ignored, so it is refused).",
    # The series (engine/series.py, dealer.py, gwangpalli.py, settle.py, replay.py).
    "bad_series": "The series document is not a JSON object of the documented shape.",
    "bad_series_players": "A series needs 2 to 7 distinct, named players at the table.",
    "dealer_not_at_table": "The dealer named is not one of the players at the table.",
    "bad_draw": "The draw for dealer needs one card of the 48 from each player (night or day).",
    "draw_tie": "Players drew cards of the same rank: they draw again.",
    "series_finished": "The series already has all its hands: no more hands.",
    "bad_hand_record": 'A hand record is {"summary": {...}} or {"log": {"events": [...]}}.',
    "hand_players_mismatch": "The hand's players are not the players who play it.",
    "hand_field_mismatch": "A field the series supplies (dealer, rules, carry, chip value) differs.",
    "hand_not_finished": "A live hand log that has not ended yet.",
    "no_gwangpalli": "Choosing who plays exists only with four to seven at the table.",
    "bad_choice": "A choice to play or sit out of the wrong shape, or for the dealer.",
    "missing_choice": "A player who had a free choice to play or sit out made none.",
    "choice_order": "A choice against the order rule: two play, the rest sit out; three left must play.",
    "choices_after_nagari": "After a nagari the same three play again: no choosing.",
    "bad_shown": "Cards shown by a sitter out of turn, of the wrong shape, or not bright/11jd/12jd/9a/joker.",
    "unbalanced": "Balances that do not add up to zero.",
    "bad_replay_document": 'A replay document has "events" (a hand log) or "hands" (a series).',
    # A group's payments (engine/group/ledger.py).
    "bad_payment": "A payment's points are not a whole number above zero.",
    "payment_stranger": "A payment from or to someone who is not one of the group's players.",
    "payment_to_self": "A payment from a player to the same player.",
    "payment_beyond_owed": "A payment larger than the payer owes the payee, without beyond_owed.",
}


class EngineError(ValueError):
    """A refusal: one or more coded errors; nothing was changed."""

    at_event: int | None  # set by ``hand.replay``: the index of the refused event in the log

    def __init__(self, code: str, message: str, path: str = ""):
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.errors = [{"code": code, "message": message, "path": path}]

    @classmethod
    def many(cls, errors: list[dict]) -> EngineError:
        err = cls(errors[0]["code"], errors[0]["message"], errors[0]["path"])
        err.errors = list(errors)
        return err

    @property
    def code(self) -> str:
        return self.errors[0]["code"]
