"""모임 A group's evenings: each evening's hands as plain facts, statistics, balances, who still owes.

Pure functions over JSON-ready data, so that the web layer can keep each evening's facts
(``facts.evening_facts``) with the table's version and never replay every hand on every view:

- ``facts.evening_facts(series)``: one evening (a series) → its balances and one small dict per hand
  (who played, won, said go, shook, bombed; what each paid whom, with the doubles of the trail).
  A quick-entry hand counts as much as a live one: both are read from their contract summary.
- ``stats.player_stats(hands)``: per player, over any selection of those hands (an evening, a month,
  all time), with the biggest hand won and its trail; ``stats.head_to_head``; ``titles.titles`` with reasons.
- ``ledger.running_balances(evenings)``: the ledger of evenings with the balances after each.
- ``ledger.owed(balances, payments)``: the fewest transfers settling the balances less what was paid.
  A recorded payment never changes what was won and lost; it only settles.
"""
