"""Competitions: what spans several tables (a tournament's entrants, rounds, pairings and standings).

The floor above `bot.sessions`: the pure formats (`formats`, `swiss`, `knockout`, `table_rounds`: no Discord,
no SQL, no clock) decide pairings and standings from the stored matches; `runner` opens a round's matches as
ordinary tables through the session layer and hears of their ends through the store's one "table finished"
fact (see docs/design.md).
"""
