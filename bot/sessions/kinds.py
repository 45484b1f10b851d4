"""What the session layer adds to a game's own description (`GameSpec`): reading command options.

Everything that differs between games (options, DMs, timeouts, takeover, command input) is in each game's
spec; this holds only what is the same for every game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

OFFERED_AT = re.compile(r"(?s)(.*)@([0-9]{1,9})")


def offered_move(params: Mapping[str, Any]) -> tuple[dict[str, Any], int | None]:
    """Autocomplete values carry the move number they were offered at (`7H@12`; the label stays `7♥`), so a
    command sent twice cannot be applied twice. Returns the values without it, and that move number."""
    clean, seq = {}, None
    for key, value in params.items():
        if isinstance(value, str) and (match := OFFERED_AT.fullmatch(value.strip())):
            value, seq = match[1], int(match[2])
        clean[key] = value
    return clean, seq


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's stored options as its game takes them: all but the turn time, which is the session's (a
    setting's default may be any number of seconds; the engine never sees the clock)."""
    return {k: v for k, v in options.items() if k != "timeout"}
