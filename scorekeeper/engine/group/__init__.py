"""모임 A group's evenings: each evening's facts, the players' statistics and titles, balances and debts.

Pure functions over typed facts, so that the table side can keep each evening's facts (their JSON)
with the table's version and never replay every hand on every view:

- ``facts.evening_facts(series)``: one evening (a series) → its balances, statistics, head to head
  and best hands; its hands (``hands.PlayedHand``) are read from their contract summaries.
- ``stats``: ``PlayerStats`` per player over any selection of hands, evenings summed up
  (``merge_stats``); ``titles``: the titles of a scope with their reasons.
- ``ledger``: the ledger of evenings (each with its result, its settle-up and the balances after
  it) and what is still owed once payments are counted.
- ``figures.figures(...)``: all of that for a group's page and API.
"""
