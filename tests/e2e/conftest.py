"""Fixtures of the end-to-end tests: see the guide in tests/e2e/harness.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from pydantic import SecretStr

from tests import pg
from tests.conftest import BACKENDS
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import Harness


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "bot(**settings): settings of the bot under test (any Settings field, turn_timeout_seconds=..., "
        "extra_extensions=[...]) and rate_limits=True for Discord's rate limits in the fake",
    )
    config.addinivalue_line(
        "markers",
        "both_backends: run the test's bot on SQLite and on PostgreSQL (a fresh database on the throwaway "
        "server; skipped with the reason when there is none)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # The backend is the harness's own parameter (not a fixture of its own), so modules elsewhere that import
    # `harness` and `fake_server` from here keep working unchanged.
    if "harness" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("harness", BACKENDS, indirect=True)


@pytest.fixture
async def fake_server(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord, with discord.py pointed at it for this test only (the application's
    Activities on when the bot under test is given the Activity's settings: tests/e2e/fake_activity.py)."""
    fake = FakeDiscord()
    marker = request.node.get_closest_marker("bot")
    if marker is not None and marker.kwargs.get("discord_client_id"):
        fake.enable_activities()
    await fake.start()
    # Interaction responses and followups use the same Route class (discord.webhook.async_ imports it from
    # discord.http), so one base covers REST, webhooks and interaction callbacks.
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def harness(
    fake_server: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Harness]:
    """The bot on SQLite, or on PostgreSQL when a `both_backends` test's parameter says so."""
    marker = request.node.get_closest_marker("bot")
    options = dict(marker.kwargs) if marker else {}
    admin_url = database_url = None
    if getattr(request, "param", "sqlite") == "postgres":
        admin_url = request.getfixturevalue("pg_admin_url")  # skips with the reason without PostgreSQL
        database_url = await pg.create_database(admin_url)
        options["database_url"] = SecretStr(database_url)
    h = Harness(fake_server, tmp_path, **options)
    try:
        await h.start_bot()
        yield h
    finally:
        await h.close()
        if admin_url is not None and database_url is not None:
            await pg.drop_database(admin_url, database_url)
    problems = h.problems()
    if problems:
        pytest.fail("end-to-end problems:\n- " + "\n- ".join(problems), pytrace=False)


@pytest.fixture
def discord_fake(harness: Harness) -> FakeDiscord:
    return harness.fake
