"""Shared helpers of the game end-to-end tests: drive seats like people do, and check what was public."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cogs.help import help_lines
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, UserHandle
from tests.e2e.harness import Harness


def live_game(harness: Harness, channel: str = "games") -> Any:
    """The bot's game in the channel (read only, to know which cards are hidden right now)."""
    assert harness.bot is not None
    table = harness.bot.sessions.table_in(harness.fake.channel(channel).id)
    return table.game if table is not None else None


def hidden_cards(game: Any) -> set[str]:
    """Cards that must not appear in public now, as they are printed (`A♠`) and typed (`AS`)."""
    view = game.public_view()
    shown = set()
    if getattr(view, "shown_hand", None) is not None:
        shown = set(view.shown_hand.cards)
    cards = {c for p in view.players for c in game.view(p).hand if c not in shown}
    cards |= set(getattr(game, "discards", []))
    if hasattr(game, "payoff"):
        # Malice: the face-down payoff cards are hidden too. It plays with two decks, so a card that has a
        # face-up twin (centre, side stacks, payoff tops) cannot be told apart from it in text: skip those.
        for pile in game.payoff.values():
            cards |= set(pile[:-1])
        public = {c for stack in view.centre for c in stack}
        public |= {c for stacks in view.side.values() for stack in stacks for c in stack}
        public |= {c for c in view.payoff_top.values() if c is not None}
        if view.last_play is not None:  # the card just played, even if it completed a stack that left
            public.add(view.last_play.card)
        cards -= public
    cards = {c for c in cards if not c.is_joker}  # four jokers: one on the table says nothing of the others
    return {c.pretty for c in cards}


class PublicScanner:
    """Remembers which public message versions were checked; checks new ones against the hidden cards now."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.checked: dict[int, int] = {}
        self.versions_checked = 0
        self.choices_checked = 0

    def scan(self, secret: set[str]) -> None:
        for message in self.fake.public_messages():
            start = self.checked.get(message.id, 0)
            for number in range(start, len(message.versions)):
                version = message.versions[number]
                # An edit is checked for what it adds: a log line kept from the version before was checked
                # when it appeared (a card played then may since be back in the stock and drawn: no leak).
                before = set(message.versions[number - 1].text.splitlines()) if number else set()
                added = [line for line in version.text.splitlines() if line not in before]
                texts = added + [
                    c.get("label") or "" for row in version.components for c in row.get("components", [])
                ]
                for text in texts:
                    leaked = [card for card in secret if card in text]
                    assert not leaked, f"public message {message.id} shows hidden {leaked}: {text!r}"
                self.versions_checked += 1
            self.checked[message.id] = len(message.versions)

    def scan_choices(self, choices: list[Any], own: set[str], secret: set[str]) -> None:
        """An autocomplete answer may show the caller's own cards, never anybody else's."""
        for choice in choices:
            leaked = [card for card in secret - own if card in f"{choice.name} {choice.value}"]
            assert not leaked, f"autocomplete shows another player's card {leaked}: {choice}"
            self.choices_checked += 1


def table_message(fake: FakeDiscord, title: str, channel: str = "games") -> FakeMessage:
    found = [m for m in fake.channel_messages(channel) if any(title in h for h in m.history)]
    assert found, f"no table message with {title!r}"
    return found[-1]


async def my_turn(user: UserHandle) -> Any | None:
    """Ask /hand; the reply when it is this user's turn, else None."""
    reply = await user.slash("hand")
    return reply if "It is your turn" in reply.text else None


def own_cards(game: Any, user: UserHandle) -> set[str]:
    return {c.pretty for c in game.view(str(user.id)).hand}


def ledger_net(entries: list[Any]) -> dict[str, int]:
    net: dict[str, int] = {}
    for e in entries:
        net[e.from_account] = net.get(e.from_account, 0) - e.amount
        net[e.to_account] = net.get(e.to_account, 0) + e.amount
    return net


TURN_PREFIX = "➡️"
DELETE_ROUTE = "DELETE /channels/{channel_id}/messages/{message_id}"


def turn_messages(fake: FakeDiscord, channel: str = "games") -> list[FakeMessage]:
    """Every turn message the bot posted in the channel, deleted ones included, oldest first."""
    cid = fake.channel(channel).id
    return sorted(
        (
            m
            for m in fake.messages.values()
            if m.visibility.kind == "public" and m.channel_id == cid and m.history[0].startswith(TURN_PREFIX)
        ),
        key=lambda m: m.seq,
    )


POST_ROUTE = "POST /channels/{channel_id}/messages"
EDIT_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"


def channel_traffic(fake: FakeDiscord, channel: str = "games") -> dict[str, int]:
    """The bot's REST calls on the channel's messages over the test, from the fake's record (what counts
    against Discord's per-channel rate limit), and the DMs it sent elsewhere."""
    prefix = f"/channels/{fake.channel(channel).id}/"
    counts = {"posts": 0, "edits": 0, "deletes": 0, "dms": 0}
    for route, key in ((POST_ROUTE, "posts"), (EDIT_ROUTE, "edits"), (DELETE_ROUTE, "deletes")):
        for call in fake.calls(route):
            if call.path.startswith(prefix):
                counts[key] += 1
            elif route == POST_ROUTE:
                counts["dms"] += 1
    return counts


LOG_STARTS = ("▶️", "**Deal ", "**Turn ", "🏁")


def log_messages(fake: FakeDiscord, channel: str = "games") -> list[FakeMessage]:
    """The game's public log messages in the channel (the first one opens with the start line, each other one
    with its group's title; the last one is the result), oldest first."""
    return [m for m in fake.channel_messages(channel) if m.text.startswith(LOG_STARTS)]


def log_titles(messages: list[FakeMessage]) -> list[str]:
    """The group titles of these log messages, in order."""
    return [line for m in messages for line in m.text.splitlines() if line.startswith(LOG_STARTS[1:3])]


def live_turn_messages(fake: FakeDiscord, channel: str = "games") -> list[FakeMessage]:
    """The turn messages in the channel now (not deleted)."""
    return [m for m in fake.channel_messages(channel) if m.text.startswith(TURN_PREFIX)]


def check_turn_messages(
    fake: FakeDiscord,
    people: list[UserHandle],
    channel: str = "games",
    by_hand: tuple[tuple[int, int], ...] = (),
) -> list[FakeMessage]:
    """The channel's turn messages over the whole game, from what the fake recorded.

    At no moment were two live: replaying posts and deletions in the fake's own order (a request is numbered
    when it arrives, a message when it is created) never counts more than one; `by_hand` adds deletions the
    test made itself, as (`fake.mark()`, message id). Each message names one person through all its edits, and
    pings him whenever the turn passed to him (a message posted again for the same person does not ping a
    second time). Returns them (oldest first)."""
    turns = turn_messages(fake, channel)
    ids = {m.id: m for m in turns}
    timeline = [(m.seq, "post", m.id) for m in turns]
    for call in fake.calls(DELETE_ROUTE):
        message_id = int(call.path.rsplit("/", 1)[1])
        if message_id in ids:
            timeline.append((call.seq, "delete", message_id))
    timeline += [(mark, "delete", message_id) for mark, message_id in by_hand]
    live: set[int] = set()
    for _, what, message_id in sorted(timeline):
        if what == "post":
            live.add(message_id)
        else:
            live.discard(message_id)
        assert len(live) <= 1, f"two turn messages live at once: {sorted(live)}"
    mentions = {u.id: f"<@{u.id}>, your turn" for u in people}
    previous = None
    for message in turns:
        named = [uid for uid, text in mentions.items() if text in message.history[0]]
        assert len(named) == 1, message.history[0]
        assert all(mentions[named[0]] in version for version in message.history), "edits keep the player"
        if named[0] not in message.pinged:
            # Posted again for the same person (to stay below new log lines, or after a hand deletion): he was
            # pinged already, once is enough.
            assert previous == named[0], "a turn passing to someone always pings him"
        previous = named[0]
    assert any(named_first in turns[0].pinged for named_first in mentions) if turns else True
    return turns


async def test_the_readme_commands_table_lists_every_command_with_all_its_options(harness: Harness) -> None:
    """From the running bot's command tree: each command, required options bare, optional ones in brackets."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`(/[^`]+)`", section))
    assert harness.bot is not None
    usages = [line.split("`")[1] for line in help_lines(harness.bot.tree)]
    assert len(usages) > 20
    assert [u for u in usages if u not in documented] == []
