"""What both backends compute the same way, outside SQL: JSON text, who is a person, balance changes, and the
stats assembled from balance rows. Kept here so the SQLite and PostgreSQL stores cannot drift apart."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from storage.models import KindStats, LedgerIn, PlayerStats, ResultIn

# The balance row of a player over every game kind (the leaderboard without a kind reads it directly).
ALL_KINDS = "*"
# The languages a server may choose for its public messages (`guild_settings.language`); the SQL checks the
# same list, so a typo never reaches the database.
GUILD_LANGUAGES = ("en", "de")


# A season is the calendar month (UTC) a game ended in, written "2026-11"; "all-time" is every game.
ALL_TIME = "all-time"
SEASON = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
SEASON_SETTINGS = ("monthly", "off")


def season_of(when: float) -> str:
    """The season of a moment (unix seconds): its calendar month in UTC."""
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m")


def season_bounds(season: str) -> tuple[float, float]:
    """The first moment of a season and the first moment after it (unix seconds)."""
    if not SEASON.fullmatch(season):
        raise ValueError(f"not a season: {season!r} (YYYY-MM)")
    year, month = int(season[:4]), int(season[5:])
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return start.timestamp(), end.timestamp()


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def is_person(account: str) -> bool:
    """Computer seats ("ai:<n>") and table accounts ("@pot") never rank, so they keep no balance."""
    return not account.startswith(("ai:", "@"))


class BalanceChange(NamedTuple):
    """What one move adds to one balance row (guild_id, player, kind)."""

    player: str
    kind: str
    net: int
    games: int
    wins: int
    biggest_win: int | None  # a finished game's net if it won chips: the row keeps the larger


def balance_changes(
    kind: str, ledger: Sequence[LedgerIn], finish: Sequence[ResultIn] | None
) -> list[BalanceChange]:
    """The changes a move makes to the balances of its kind and of all kinds, one per (player, kind), sorted
    by (player, kind): every writer takes the row locks in the same order, so two moves of different tables
    touching the same players never deadlock (PostgreSQL locks each upserted row until the commit)."""
    net: dict[str, int] = {}
    for e in ledger:
        net[e.to_account] = net.get(e.to_account, 0) + e.amount
        net[e.from_account] = net.get(e.from_account, 0) - e.amount
    played = {r.player: r for r in finish or ()}
    changes = []
    for player in sorted(set(net) | set(played)):
        if not is_person(player):
            continue
        r = played.get(player)
        games, wins = (1, int(r.won)) if r else (0, 0)
        biggest = r.net if r and r.net > 0 else None
        for k in sorted({kind, ALL_KINDS}):
            changes.append(BalanceChange(player, k, net.get(player, 0), games, wins, biggest))
    return changes


def season_changes(kind: str, finish: Sequence[ResultIn]) -> list[tuple[str, str, int, int, int]]:
    """A finished game's rows for its season's leaderboard by chips: (kind, player, net, games, wins) for its
    kind and all kinds, people only, one per (player, kind) (a player listed twice is the results' own error
    to raise), sorted by (player, kind) like the balances (the same lock order)."""
    played = {r.player: r for r in finish if is_person(r.player)}
    return [
        (k, p, played[p].net, 1, int(played[p].won))
        for p in sorted(played)
        for k in sorted({kind, ALL_KINDS})
    ]


def stats_from_balances(player: str, rows: Iterable[tuple[str, int, int, int, int | None]]) -> PlayerStats:
    """PlayerStats from a player's balance rows (kind, net, games, wins, biggest_win) in one guild."""
    overall = KindStats()
    per_game: dict[str, KindStats] = {}
    for kind, net, games, wins, biggest in rows:
        stats = KindStats(games=games, wins=wins, net=net, biggest_win=biggest)
        if kind == ALL_KINDS:
            overall = stats
        else:
            per_game[kind] = stats
    return PlayerStats(player=player, **overall.model_dump(), per_game=dict(sorted(per_game.items())))


def redact(url: str) -> str:
    """A database URL fit for a log line or an error message: the password replaced by ***."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in credentials else ''}@{host}"


def check_seasons(seasons: str | None) -> None:
    if seasons is not None and seasons not in SEASON_SETTINGS:
        raise ValueError(f"unknown seasons setting {seasons!r}: one of {SEASON_SETTINGS} or None")


def check_language(language: str | None) -> None:
    if language is not None and language not in GUILD_LANGUAGES:
        raise ValueError(f"unknown language {language!r}: one of {GUILD_LANGUAGES} or None")
