"""Malice as players meet it: its text, commands, terminal moves and simulator figures (the rules are in
`bot/games/malice/`)."""
