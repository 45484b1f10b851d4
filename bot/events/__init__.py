"""Competitions: what spans several tables (a tournament's entrants, rounds, pairings and standings).

The floor above `bot.sessions`: the pure formats (`formats`, `swiss`, `knockout`, `table_rounds`: no Discord,
no SQL, no clock) decide pairings and standings from the stored matches, each format an object of the `Format`
protocol in the `FORMATS` registry (`formats`); `runner` opens a round's matches as ordinary tables through
the session layer and hears of their ends through the stored signal's `TableFinished`, which names the event;
`competitions` is what the bot's composition root builds of this floor (the runner and the service the
/tournament commands ask; see docs/design.md).
"""
