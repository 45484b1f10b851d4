"""Replays through the real bot and the fake Discord, with Discord's rate limits on: a finished game's table
message (and /history) offers Replay, which opens a private viewer; First, Back, Forward and Last step it.
Every step is the answer to its click (a type 7 update carrying the new picture): no channel REST call, no
follow-up, nothing rate-limited. Each step shows the game as the engine replays it to that step (from the
seed and the stored actions, replayed here independently), worded in the clicker's language; a viewer keeps
working across a restart; a game not finished offers no replay."""

from __future__ import annotations

from typing import Any

import pytest

from bot import render
from bot.discord_out import discord_message
from bot.games.registry import REGISTRY
from bot.sessions.kinds import game_options
from bot.sessions.rows import record_from_row
from bot.sessions.view import table_info
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, poll, table_message

pytestmark = pytest.mark.bot(rate_limits=True)

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
LABELS = {
    "en": {"open": "Replay", "first": "⏮ First", "back": "◀ Back", "forward": "Forward ▶", "last": "Last ⏭"},
    "de": {
        "open": "Wiederholung",
        "first": "⏮ Anfang",
        "back": "◀ Zurück",
        "forward": "Vor ▶",
        "last": "Ende ⏭",
    },
}


class Expected:
    """The finished game replayed here from its stored seed, options and actions, with the engine alone."""

    def __init__(self, row: Any, actions: list[Any]) -> None:
        spec = REGISTRY[row.kind]
        game = spec.new_game(list(row.players), row.seed, game_options(row.options))
        self.states = [spec.load(game.model_dump_json())]
        for action in actions:
            game.apply(spec.parse_action(action.action))
            self.states.append(spec.load(game.model_dump_json()))
        self.row = row
        self.record = record_from_row(row)
        self.last = len(actions)

    def board(self, step: int, locale: str) -> dict[str, Any]:
        """The board's embed at `step` as the table message words it (title, text, fields)."""
        record = self.record.evolve(
            game=self.states[step], seq=step, status="finished" if step == self.last else "running"
        )
        renderer = render.renderer(self.row.kind)
        board = renderer.table(table_info(record), self.states[step], None, locale=locale)
        return discord_message(board).embeds[0].model_dump(include={"title", "description"})

    def picture(self, step: int, locale: str) -> bytes:
        picture = render.table_picture(table_info(self.record), self.states[step], locale=locale)
        assert picture is not None
        return picture.data


def check_step(fake: FakeDiscord, viewer: FakeMessage, expected: Expected, step: int, locale: str) -> None:
    last = expected.last
    if locale == "de":
        counter = "der Anfang (Schritt 0" if step == 0 else f"Schritt {step} von {last}"
    else:
        counter = "the start (move 0" if step == 0 else f"move {step} of {last}"
    assert counter in viewer.content, viewer.content
    board = viewer.embeds[0]
    shown = {"title": board.get("title"), "description": board.get("description")}
    assert shown == expected.board(step, locale)
    assert fake.attachment_bytes(viewer) == [expected.picture(step, locale)], f"the picture of step {step}"
    labels = LABELS[locale]
    enabled = {b.label for b in viewer.buttons if not b.disabled}
    assert (labels["forward"] in enabled) == (step < last) and (labels["back"] in enabled) == (step > 0)
    seed_shown = expected.row.seed in viewer.text
    assert seed_shown == (step == last), "the seed is revealed at the end, as on the table"


async def step_through(
    fake: FakeDiscord, user: UserHandle, viewer: FakeMessage, expected: Expected, locale: str
) -> None:
    """From the start to the last step with Forward, back to the start with Back, checking every step."""
    labels = LABELS[locale]
    check_step(fake, viewer, expected, 0, locale)
    for step in range(1, expected.last + 1):
        reply = await user.click(viewer, labels["forward"])
        assert reply.kind == "update" and reply.message.id == viewer.id
        check_step(fake, viewer, expected, step, locale)
    for step in range(expected.last - 1, -1, -1):
        await user.click(viewer, labels["back"])
        check_step(fake, viewer, expected, step, locale)
    await user.click(viewer, labels["last"])
    check_step(fake, viewer, expected, expected.last, locale)
    await user.click(viewer, labels["first"])
    check_step(fake, viewer, expected, 0, locale)


class Budget:
    """What the bot sent Discord from now on: only interaction callbacks, none rate-limited."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.since = fake.now()
        self.requests = len(fake.requests)

    def assert_spent_nothing(self) -> None:
        routes = {r.route for r in self.fake.requests[self.requests :]}
        assert routes == {CALLBACK}, routes
        stats = self.fake.rest_stats(since=self.since)
        assert stats.total == 0 and not stats.answers_429 and not stats.sent_429, stats.by_route()


async def open_viewer(user: UserHandle, message: FakeMessage) -> FakeMessage:
    """Replay, as the message offers it (the table message in the server's language)."""
    reply = await user.click(message, LABELS["en"]["open"])
    assert reply.kind == "message" and reply.ephemeral and reply.message is not None, reply.text
    return reply.message


def assert_buttons_valid(message: FakeMessage) -> None:
    for row in message.components:
        assert len(row.get("components", [])) <= 5
    assert len(message.components) <= 5


async def finished(harness: Harness, title: str) -> tuple[FakeMessage, Expected]:
    fake = harness.fake
    await fake.wait_for_message(channel="games", contains="Game over")
    await harness.bot.sessions.idle()
    table = table_message(fake, title)
    await fake.wait_for(lambda: "Replay" in table.button_labels, what="the Replay button")
    assert_buttons_valid(table)
    row = await harness.store.last_table(fake.channel("games").id)
    assert row.status == "finished"
    return table, Expected(row, await harness.store.actions(row.id))


async def play_malice_against_the_computer(harness: Harness, alice: UserHandle) -> None:
    """Alice plays to the centre when she can, else ends her turn, until the game ends by the rules."""
    fake = harness.fake
    await alice.slash("malice challenge", opponent=fake.bot_user)
    table = await poll(lambda: live_game(harness) is not None, what="the game")
    assert table
    checked = False
    for _ in range(400):
        await poll(
            lambda: (g := live_game(harness)) is None or g.current_player == str(alice.id),
            what="Alice's turn or the end",
        )
        game = live_game(harness)
        if game is None:
            return
        if not checked:  # a game not finished offers no replay, neither on its message nor in /history
            checked = True
            await harness.bot.sessions.idle()
            assert "Replay" not in table_message(fake, "Malice · table").button_labels
            history = await alice.slash("history")
            assert "Replay" not in [b.label for m in history.messages for b in m.buttons]
        centre = [a for a in game.legal_actions() if a.kind == "play" and a.to.startswith("centre")]
        if centre:
            play = centre[0]
            card = str(play.card) if play.source == "hand" else play.source
            await alice.slash("malice play", card=card, to=play.to)
        else:
            await alice.slash("malice end")
    raise AssertionError("the game did not end")


async def test_a_finished_malice_game_replays_step_by_step_in_each_readers_language(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-replay-malice-1")
    fake = harness.fake
    alice, carol = harness.user("alice"), harness.user("carol")
    await play_malice_against_the_computer(harness, alice)
    table, expected = await finished(harness, "Malice · table")
    assert expected.last > 10
    assert expected.states[-1].model_dump_json() == expected.row.snapshot

    budget = Budget(fake)
    viewer = await open_viewer(alice, table)
    await step_through(fake, alice, viewer, expected, "en")

    # Carol reads German: her viewer is German, though the table (and Alice's viewer) speak English.
    carol.user.locale = "de"
    german = await open_viewer(carol, table)
    check_step(fake, german, expected, 0, "de")
    await carol.click(german, LABELS["de"]["forward"])
    check_step(fake, german, expected, 1, "de")
    await carol.click(german, LABELS["de"]["last"])
    check_step(fake, german, expected, expected.last, "de")
    assert "Game over" not in german.text and "Spiel vorbei" in german.text
    check_step(fake, viewer, expected, 0, "en")  # Alice's viewer is untouched by Carol's clicks
    budget.assert_spent_nothing()

    # A new bot process: the old viewers' buttons still step (their ids name the table and the step).
    await harness.restart_bot()
    budget = Budget(fake)
    await alice.click(viewer, LABELS["en"]["forward"])
    check_step(fake, viewer, expected, 1, "en")
    await carol.click(german, LABELS["de"]["back"])
    check_step(fake, german, expected, expected.last - 1, "de")
    assert harness.bot.sessions.replays.replayed == 1, "replayed once, then served from memory"
    budget.assert_spent_nothing()


async def test_an_insomnia_game_replays_and_history_offers_the_replay_of_an_older_game(
    harness: Harness, monkeypatch
) -> None:
    seeds = iter(["e2e-replay-insomnia-1", "e2e-replay-malice-2"])
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: next(seeds))
    fake = harness.fake
    alice = harness.user("alice")
    await alice.slash("insomnia new", chips=5, deals=1)
    lobby = table_message(fake, "Insomnia · table")
    await alice.click(lobby, "Add computer")
    await alice.click(lobby, "Add computer")
    await alice.click(lobby, "Start")
    await alice.slash("resign")  # a computer plays her seat on: three computers play the deal out
    table, expected = await finished(harness, "Insomnia · table")
    assert expected.states[-1].model_dump_json() == expected.row.snapshot

    budget = Budget(fake)
    viewer = await open_viewer(alice, table)
    await step_through(fake, alice, viewer, expected, "en")
    budget.assert_spent_nothing()

    # A newer game in the channel (Alice resigns against the computer); /history of the older one offers it.
    await alice.slash("malice challenge", opponent=fake.bot_user)
    await poll(lambda: live_game(harness) is not None, what="the Malice game")
    await alice.slash("resign")
    await poll(lambda: live_game(harness) is None, what="the Malice game to end")
    await harness.bot.sessions.idle()
    history = await alice.slash("history", game=f"#{expected.row.id}")
    answer = history.messages[-1]
    assert "Insomnia" in answer.text and "Replay" in answer.button_labels
    budget = Budget(fake)
    older = await open_viewer(alice, answer)
    check_step(fake, older, expected, 0, "en")
    await alice.click(older, "Last ⏭")
    check_step(fake, older, expected, expected.last, "en")
    budget.assert_spent_nothing()
