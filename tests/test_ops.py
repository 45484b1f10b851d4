"""Small parts of the operator's view, alone: the route a request is counted under, which Discord failures
are expected (one warning line) and which are bugs (a traceback), and the store that times itself."""

from __future__ import annotations

import pytest

from bot.ops import metrics
from bot.ops.timed import TimedStore
from bot.sessions.failures import expected
from storage import open_store
from tests.storage.conftest import Doc


@pytest.mark.parametrize(
    ("method", "path", "route"),
    [
        ("patch", "/api/v10/channels/7/messages/9", "PATCH /channels/{channel_id}/messages/{message_id}"),
        ("POST", "/api/v10/users/@me/channels", "POST /users/@me/channels"),
        ("PUT", "/api/v10/applications/9/commands", "PUT /applications/{application_id}/commands"),
        (
            "POST",
            "/api/v10/interactions/5/tok-abc/callback",
            "POST /interactions/{interaction_id}/{token}/callback",
        ),
        (
            "PATCH",
            "/api/v10/webhooks/9/tok-abc/messages/@original",
            "PATCH /webhooks/{application_id}/{token}/messages/@original",
        ),
        (
            "PUT",
            "/api/v10/channels/7/messages/9/reactions/%F0%9F%8E%B2/@me",
            "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
        ),
        ("GET", "/gateway/", None),
    ],
)
def test_a_request_is_counted_under_its_route_template(method: str, path: str, route: str | None) -> None:
    assert metrics.route_of(method, path) == route


def test_only_interaction_answers_are_outside_the_global_limit() -> None:
    assert metrics.global_limited("PATCH /channels/{channel_id}/messages/{message_id}")
    assert not metrics.global_limited("POST /interactions/{interaction_id}/{token}/callback")
    assert not metrics.global_limited("POST /webhooks/{application_id}/{token}")


class HTTPError(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def test_discord_unwell_is_expected_and_a_bug_is_not() -> None:
    assert expected(HTTPError(503, "503 Service Unavailable (error code: 0):\n  try later")) == (
        "503 Service Unavailable (error code: 0): try later"
    )
    assert expected(HTTPError(429, "429 Too Many Requests")) == "429 Too Many Requests"
    assert expected(ConnectionResetError("reset by peer")) == "ConnectionResetError: reset by peer"
    assert expected(TimeoutError()) == "TimeoutError"
    assert expected(HTTPError(400, "400 Bad Request")) is None  # our request was wrong: a bug
    assert expected(KeyError("x")) is None


async def test_the_timed_store_counts_moves_by_game_and_times_each_operation(tmp_path) -> None:
    store = TimedStore(await open_store(str(tmp_path / "db.sqlite3")))
    moves = metrics.MOVES.labels("malice")
    timed = metrics.DB_SECONDS.labels("append_action")
    before, before_timed = moves._value.get(), timed._sum.get()
    try:
        table = await store.create_table(1, 2, "malice", 3, Doc(), "seed", "commitment")
        await store.start_table(table, "{}")
        await store.append_action(table, 0, "3", "{}", [], "{}")
        assert moves._value.get() == before + 1
        assert timed._sum.get() > before_timed
        assert (await store.get_table(table)).kind == "malice"  # everything else passes through
    finally:
        await store.close()
