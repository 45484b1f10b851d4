"""Issue 37: one answer per interaction. Discord takes one initial response per interaction and refuses every
later one (400 / 40060), so the bot must answer each click and command exactly once, and never leave one
without an answer: a deferral racing the answer it stands in for, a click whose update of its message is
followed by the clicker's own sentence (then a followup), a command given what Discord never sends (an
option as null)."""

from __future__ import annotations

import asyncio
from itertools import product
from typing import Any

import aiohttp
import pytest

from bot.i18n import t
from tests.e2e.fake_discord import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeDiscordError,
)
from tests.e2e.harness import Harness
from tests.e2e.test_fuzz import leaf_commands
from tests.e2e.test_game_support import table_message

# A valid body of every initial response type (Discord's schema checks it before the 40060).
BODIES: dict[int, dict[str, Any]] = {
    4: {"type": 4, "data": {"content": "an answer", "flags": 64}},
    5: {"type": 5, "data": {"flags": 64}},
    6: {"type": 6},
    7: {"type": 7, "data": {"content": "an update"}},
    8: {"type": 8, "data": {"choices": []}},
    9: {
        "type": 9,
        "data": {"custom_id": "m", "title": "A dialog", "components": [{"type": 10, "content": "text"}]},
    },
    12: {"type": 12},
}
ALLOWED = {
    APPLICATION_COMMAND: (4, 5, 9, 12),
    MESSAGE_COMPONENT: (4, 5, 6, 7, 9, 12),
    AUTOCOMPLETE: (8,),
    MODAL_SUBMIT: (4, 5, 6, 7),
}
WRONG = {lang: t(lang, "errors.unexpected", error_id="").split("(")[0].strip() for lang in ("en", "de")}


async def test_the_fake_refuses_a_second_initial_answer_of_every_type(harness: Harness) -> None:
    """As Discord: whatever the first response was, any second one is refused with 400 / 40060, and the
    first one stands (what the user saw is the first answer)."""
    fake = harness.fake
    fake.activity_enabled = True  # so a first LAUNCH_ACTIVITY (type 12) is taken
    alice = harness.user("alice")
    carrier = (await alice.slash("table")).message  # a message for the component interactions to sit on
    assert carrier is not None
    channel = fake.channel("games")
    async with aiohttp.ClientSession() as http:
        for itype, firsts in ALLOWED.items():
            for first, second in product(firsts, ALLOWED[itype]):
                source = carrier.id if itype in (MESSAGE_COMPONENT, MODAL_SUBMIT) else None
                state = fake._start_interaction(itype, alice.user, channel, f"type {itype}", source)
                url = f"{fake.api_base}/interactions/{state.id}/{state.token}/callback"
                async with http.post(url, json=BODIES[first]) as response:
                    assert response.status in (200, 204), (itype, first, await response.text())
                async with http.post(url, json=BODIES[second]) as response:
                    body = await response.json()
                    assert (response.status, body.get("code")) == (400, 40060), (itype, first, second, body)
                assert state.callback_type == first and state.second_answers == 1
    expected = sum(len(f) ** 2 for f in ALLOWED.values())
    assert len(fake.violations) == expected  # each one named, and a test's failure if the bot did it
    fake.violations.clear()


@pytest.mark.bot(extra_extensions=["tests.e2e.in_place_probe"])
async def test_a_deferral_on_its_way_is_not_answered_again(harness: Harness) -> None:
    """The in-place answer's watch defers a click (type 6) that is not answered in time; the update comes
    while that deferral is still on its way back from Discord. It must wait for it and then edit the message
    through the token, never send a second initial answer (the 12 error ids of issue 37), and the clicker's
    own sentence then goes as a followup."""
    fake = harness.fake
    alice = harness.user("alice")
    posted = await alice.slash("inplace")
    message = posted.message
    assert message is not None
    gate = fake.callback_gates[6] = asyncio.Event()
    click = asyncio.ensure_future(alice.click(message, "Go"))
    await fake.wait_for(
        lambda: any(s.callback_type == 6 for s in fake.interactions.values()), what="the deferral taken"
    )
    assert harness.bot is not None
    steps = harness.bot.in_place_steps  # type: ignore[attr-defined]
    steps.go.set()
    await steps.updating.wait()
    for _ in range(5):  # let a wrong update go its way (its second answer would be refused at once)
        await asyncio.sleep(0)
    gate.set()
    reply = await click
    state = reply.interaction
    await fake.wait_for(lambda: state.completed and len(state.followup_ids) == 1, what="update and sentence")
    assert state.callback_type == 6 and state.second_answers == 0
    assert message.text == "Updated in place."
    assert [fake.messages[m].text for m in state.followup_ids] == ["Your own sentence."]
    assert fake.messages[state.followup_ids[0]].ephemeral


async def test_a_click_on_the_table_message_updates_it_and_the_sentence_follows(harness: Harness) -> None:
    """Start on the lobby: the click's own answer updates the table message (type 7), and what the starter
    alone should read comes after it as a followup, never as a second initial answer."""
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=3)
    lobby = table_message(fake, "Insomnia · table")
    joined = await bob.click(lobby, "Join")
    started = await alice.click(lobby, "Start")
    for reply in (joined, started):
        state = reply.interaction
        assert state.second_answers == 0 and not state.deferred_unanswered, reply
        assert state.callback_type in (4, 7), reply
    # A click on the table message by someone who may not do that: one private sentence, the first answer.
    refused = await bob.click(lobby, "Cancel") if "Cancel" in lobby.button_labels else None
    if refused is not None:
        assert refused.ephemeral and refused.interaction.second_answers == 0


def _commands(harness: Harness) -> list[tuple[str, list[dict[str, Any]]]]:
    return sorted(leaf_commands(harness.fake.global_commands))


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_every_command_given_a_null_option_answers_with_a_sentence(
    harness: Harness, locale: str
) -> None:
    """Every command of the synced tree, each option sent as null (as Discord never does), and all of them
    null at once: one answer each, a sentence in the reader's language, never an error id."""
    reader = harness.user("carol")
    reader.user.locale = locale
    language = "de" if locale == "de" else "en"
    commands = _commands(harness)
    assert len(commands) >= 20
    sent = 0
    for (path, definitions), channel in product(commands, ["games", reader.dm_channel()]):
        names = [o["name"] for o in definitions]
        cases = [{name: None} for name in names] + ([dict.fromkeys(names)] if len(names) > 1 else [])
        for values in cases:
            what = f"/{path} {values} in {channel}"
            try:
                reply = await reader.slash(path, channel=channel, unchecked=True, values=values)
            except FakeDiscordError as exc:
                raise AssertionError(f"{what}: {exc}") from None
            sent += 1
            text = reply.text if reply.modal is None else str(reply.modal.get("title"))
            assert text.strip(), what
            assert WRONG["en"] not in text and WRONG["de"] not in text, f"{what}: {text}"
            assert reply.interaction.second_answers == 0 and not reply.interaction.deferred_unanswered, what
            if language == "de":
                assert WRONG["en"] not in text and "is missing" not in text, f"{what}: {text}"
    assert sent >= len(commands)


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_history_with_a_null_page_is_its_first_page(harness: Harness, locale: str) -> None:
    """`/history page:null` (issue 37's error id at cogs/table.py:239) is `/history` as if no page was given,
    and a required option sent as null is named in the reader's language."""
    alice, bob = harness.user("alice"), harness.user("bob")
    alice.user.locale = locale
    language = "de" if locale == "de" else "en"
    await alice.slash("malice challenge", opponent=bob, channel="lounge")
    await bob.slash("malice accept", channel="lounge")
    await alice.slash("resign", channel="lounge")
    plain = await alice.slash("history", channel="lounge")
    null = await alice.slash("history", channel="lounge", unchecked=True, values={"page": None, "game": None})
    assert null.text == plain.text and null.ephemeral
    missing = await alice.slash(
        "malice challenge", channel="general", unchecked=True, values={"opponent": None}
    )
    assert missing.ephemeral
    assert missing.text.startswith(t(language, "input.missing", option="").split("`")[0]), missing.text


async def test_the_fake_refuses_an_update_discord_would_refuse(harness: Harness) -> None:
    """Answering in place as Discord allows it: an update (type 7) or a deferred update (type 6) needs the
    message the component sat on (a dialog opened by a command has none), and the edit of `@original` that
    finishes a deferred update must come within the token's 15 minutes."""
    fake = harness.fake
    alice = harness.user("alice")
    carrier = (await alice.slash("table")).message
    assert carrier is not None
    channel = fake.channel("games")
    async with aiohttp.ClientSession() as http:
        for ctype in (6, 7):
            state = fake._start_interaction(MODAL_SUBMIT, alice.user, channel, "a command's dialog", None)
            url = f"{fake.api_base}/interactions/{state.id}/{state.token}/callback"
            async with http.post(url, json=BODIES[ctype]) as response:
                assert response.status == 400 and state.callback_type is None, await response.text()
        assert len(fake.violations) == 2
        fake.violations.clear()
        state = fake._start_interaction(MESSAGE_COMPONENT, alice.user, channel, "a click", carrier.id)
        url = f"{fake.api_base}/interactions/{state.id}/{state.token}/callback"
        async with http.post(url, json=BODIES[6]) as response:
            assert response.status in (200, 204)
        assert state.deferred_unanswered
        fake.advance(15 * 60 + 1)
        edit = f"{fake.api_base}/webhooks/{fake.application_id}/{state.token}/messages/@original"
        async with http.patch(edit, json={"content": "too late"}) as response:
            body = await response.json()
            assert (response.status, body.get("code")) == (401, 50027), body
        assert state.deferred_unanswered and carrier.text != "too late"
