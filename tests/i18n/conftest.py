"""The end-to-end fixtures (tests/e2e) for the i18n tests that run the real bot against the fake Discord."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import discord_fake, fake_server, harness

__all__ = ["discord_fake", "fake_server", "harness"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "bot(**settings): settings of the bot under test (see tests/e2e)")
