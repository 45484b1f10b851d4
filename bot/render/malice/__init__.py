"""Malice as players meet it: its text, pictures, commands, terminal moves and simulator figures (the rules
are in `bot/games/malice/`)."""
