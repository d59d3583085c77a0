"""The summary contract: a hand summary checked card by card and scored
(``contract.score_summary``): what ``scorekeeper score`` and ``POST /api/v1/score`` answer.
"""
