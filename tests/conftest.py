"""Fixtures of the session tests (tests/test_sessions*.py): a real Store on a tmp file and a recording
announcer. tests/storage has its own `store`; the end-to-end tests use neither."""

from __future__ import annotations

import pytest

from storage import Store
from tests.recording import RecordingAnnouncer


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(str(tmp_path / "cards.sqlite3"))
    yield store
    await store.close()


@pytest.fixture
def announcer():
    return RecordingAnnouncer()
