"""One contract, two backends: the opener picks the backend from what it is given, both implement every method
of `storage.Store` with the same signature, and an unreachable server is a StoreError without the password."""

from __future__ import annotations

import inspect

import pytest

from storage import SqliteStore, Store, StoreError, StoreUnavailable, is_postgres_url, open_store
from storage.common import redact
from storage.postgres import PostgresStore
from tests.pg import free_port

# The store's coroutines, its parts' included (`storage.standings.Standings`).
CONTRACT = sorted(
    {
        name
        for part in Store.__mro__[:-1]
        for name, member in vars(part).items()
        if inspect.iscoroutinefunction(member)
        and (not name.startswith("_") or name in ("__aenter__", "__aexit__"))
    }
)


def test_the_contract_names_every_method_the_session_layer_and_the_cogs_call():
    assert {
        "append_action",
        "create_table",
        "set_seats",
        "start_table",
        "cancel_table",
        "update_meta",
        "get_table",
        "active_table",
        "last_table",
        "open_tables",
        "actions",
        "ledger",
        "history",
        "results",
        "leaderboard",
        "player_stats",
        "close",
        "rating_changes",
        "rating_history",
        "chip_history",
        "rating_leaderboard",
        "player_ratings",
        "head_to_head",
        "seasons",
        "set_seasons",
    } <= set(CONTRACT)


@pytest.mark.parametrize("implementation", [SqliteStore, PostgresStore])
def test_both_backends_implement_the_contract_with_the_same_signatures(implementation):
    for name in CONTRACT:
        ours = inspect.signature(getattr(implementation, name))
        theirs = inspect.signature(getattr(Store, name))
        assert list(ours.parameters.values()) == list(theirs.parameters.values()), name
        if name != "__aenter__":  # returns its own class
            assert ours.return_annotation == theirs.return_annotation, name


async def test_the_opener_picks_the_backend_from_a_url_or_a_path(database):
    store = await open_store(database)
    try:
        assert isinstance(store, Store)
        assert type(store) is (PostgresStore if is_postgres_url(database) else SqliteStore)
    finally:
        await store.close()
    async with await Store.open(database) as again:  # the contract's own opener
        assert type(again) is type(store)


def test_postgres_urls_and_paths_are_told_apart():
    assert is_postgres_url("postgresql://bot:pw@db.example:5432/cardtable")
    assert is_postgres_url("postgres://localhost/cardtable")
    assert not is_postgres_url("cardbot.sqlite3") and not is_postgres_url("/var/lib/bot/postgresql.sqlite3")


async def test_an_unreachable_server_is_a_store_error_that_hides_the_password():
    url = f"postgresql://bot:s3cret-pw@127.0.0.1:{free_port()}/cardtable"
    with pytest.raises(StoreUnavailable) as info:
        await open_store(url)
    assert isinstance(info.value, StoreError)
    assert "s3cret-pw" not in str(info.value) and "bot:***@127.0.0.1" in str(info.value)


def test_redact_keeps_everything_but_the_password():
    assert (
        redact("postgresql://bot:pw@h:5/db?sslmode=require") == "postgresql://bot:***@h:5/db?sslmode=require"
    )
    assert redact("postgresql://bot@h/db") == "postgresql://bot@h/db"
    assert redact("postgresql://h/db") == "postgresql://h/db"
