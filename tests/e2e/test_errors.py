"""Failures reach users as one ephemeral sentence; bugs are logged with an id; the bot keeps running."""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import Harness

pytestmark = pytest.mark.bot(extra_extensions=["tests.e2e.probe_cog"])

SOMETHING_WENT_WRONG = re.compile(r"^Something went wrong \(error id ([0-9a-f]{6})\)\.$")


def logged_error_ids(harness: Harness) -> list[str]:
    ids = []
    for record in harness.take_logged_errors():
        match = re.match(r"error id ([0-9a-f]{6}):", record.getMessage())
        assert match, f"unexpected log record: {record.getMessage()}"
        ids.append(match.group(1))
    return ids


@pytest.mark.parametrize("command", ["probe boom", "probe late-boom"])
async def test_unexpected_error_in_a_command(harness: Harness, command: str) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await alice.slash(command)
    assert reply.ephemeral
    match = SOMETHING_WENT_WRONG.match(reply.text)
    assert match, reply.text
    assert logged_error_ids(harness) == [match.group(1)]
    assert reply.message not in bob.seen()
    assert (await bob.slash("probe say", text="still alive")).text == "still alive"


async def test_unexpected_error_in_buttons(harness: Harness) -> None:
    alice = harness.user("alice")
    await alice.slash("probe post", text="t")
    board = harness.fake.channel_messages("games")[-1]
    failed = await alice.click(board, "Fail")
    assert failed.ephemeral and SOMETHING_WENT_WRONG.match(failed.text)
    persistent = await alice.slash("probe persistent", word="boom")
    assert persistent.message is not None
    boom = await alice.click(persistent.message, "Echo boom")
    assert boom.ephemeral and SOMETHING_WENT_WRONG.match(boom.text)
    assert len(logged_error_ids(harness)) == 2
    assert (await alice.click(board, "Count")).message.text == "Count: 1"  # type: ignore[union-attr]


async def test_user_mistakes_get_a_sentence_and_log_nothing(harness: Harness) -> None:
    alice, erin = harness.user("alice"), harness.user("erin")
    mistake = await alice.slash("probe mistake")
    assert mistake.ephemeral and mistake.text == "You cannot do that now: wait for your turn."
    denied = await alice.slash("probe staff")
    assert denied.ephemeral and denied.text == "You need the Manage Server permission to do that."
    assert (await erin.slash("probe staff")).text == "staff only"
    persistent = await alice.slash("probe persistent", word="no")
    assert persistent.message is not None
    refused = await alice.click(persistent.message, "Echo no")
    assert refused.ephemeral and refused.text == "That button is not for you."
    assert harness.take_logged_errors() == []
