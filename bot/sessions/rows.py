"""A table's record from its stored row (at a restart, or after another writer got there first)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.games.registry import REGISTRY
from bot.sessions.records import SessionState, TableRecord
from storage.models import RatingChange, TableRow

log = logging.getLogger(__name__)


def _named(session: SessionState, row: TableRow) -> SessionState:
    """The session with the seats' stored display names (migration 13), which an interaction's new name
    updates without a move: a seat's name there is at least as new as the session's."""
    seated = {s.player: s.display_name for s in row.seats if s.display_name}
    if all(session.names.get(p) == n for p, n in seated.items()):
        return session
    return session.model_copy(update={"names": {**session.names, **seated}})


def record_from_row(row: TableRow, ratings: Sequence[RatingChange] = ()) -> TableRecord:
    """The record as stored (with a finished game's `ratings`, `store.rating_changes`, which its result
    shows). A snapshot the code can no longer read leaves `game` empty: resume rebuilds it from the action
    log. Rows written before the session and the presenter kept separate records carry the presenter's
    fields in `meta` too: the session state ignores them."""
    game = None
    snapshot = row.snapshot
    if snapshot is not None:
        try:
            game = REGISTRY[row.kind].load(snapshot)
        except ValueError:
            log.warning("table %s: its snapshot no longer loads; rebuilding it from the log", row.id)
            snapshot = None
    return TableRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        kind=row.kind,
        host_id=row.host_id,
        options=dict(row.options),
        seed=row.seed,
        commitment=row.commitment,
        status=row.status,
        players=tuple(row.players),
        seq=row.next_seq,
        session=_named(SessionState.model_validate(row.meta or {}), row),
        snapshot=snapshot,
        game=game,
        home_channel_id=row.home_channel_id,
        ratings=tuple(ratings),
        competition=row.competition_id,
    )
