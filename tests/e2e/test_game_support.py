"""Shared helpers of the game end-to-end tests: drive seats like people do, and check what was public."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import discord

from bot.i18n.commands import command_path, usage
from bot.sessions.view import log_of
from cogs.help import help_lines, walk
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, UserHandle, message_text
from tests.e2e.harness import Harness


def live_game(harness: Harness, channel: str = "games") -> Any:
    """The bot's game in the channel (read only, to know which cards are hidden right now)."""
    assert harness.bot is not None
    table = harness.bot.sessions.tables.in_channel(harness.fake.channel(channel).id)
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
    """Checks every public message version against the cards hidden now: the board (content, the first embed,
    the buttons) of each new version, and each log line when the bot stores it (`scan_log`). A log line tells
    a move as it happened: shown a moment later, it may name a card that has since gone back into the stock
    and been drawn, which is history, not a leak; so lines are checked at the moment they were written."""

    def __init__(self, fake: FakeDiscord, harness: Harness | None = None, channel: str = "games") -> None:
        self.fake = fake
        self.harness = harness
        self.channel = channel
        self.checked: dict[int, int] = {}
        self.versions_checked = 0
        self.choices_checked = 0
        self.lines_checked: set[tuple[int, str]] = set()
        self.secrets: list[set[str]] = []  # the hidden cards at each scan
        self.seen_at: dict[int, int] = {}  # message id -> the scan that saw its newest version

    def scan(self, secret: set[str]) -> None:
        self.scan_log(secret)
        # A version is drawn a moment after the move it shows (the presenter's pace: its turn in Discord's
        # budget, the picture drawn in a thread, the request under way, a resend after a 429), and a test's
        # step is quicker than a person's: a card public then may be hidden again now (two decks in Malice: a
        # completed centre stack goes back into the stock while its twin sits in a hand). A message's writes
        # go one after the other, so a new version was drawn after its previous version was received, that
        # is after the scan before the one that saw it: cards hidden at every scan since were hidden then.
        self.secrets.append(set(secret))
        now = len(self.secrets) - 1
        for message in self.fake.public_messages():
            start = self.checked.get(message.id, 0)
            since = max(0, self.seen_at.get(message.id, now) - 1)
            board_secret = set(secret).intersection(*self.secrets[since:])
            if len(message.versions) > start:
                self.seen_at[message.id] = now
            for number in range(start, len(message.versions)):
                version = message.versions[number]
                board = [version.content, *(message_text("", version.embeds[:1]).splitlines())]
                texts = board + [
                    c.get("label") or "" for row in version.components for c in row.get("components", [])
                ]
                for text in texts:
                    leaked = [card for card in board_secret if card in text]
                    assert not leaked, f"public message {message.id} shows hidden {leaked}: {text!r}"
                self.versions_checked += 1
            self.checked[message.id] = len(message.versions)

    def scan_log(self, secret: set[str]) -> None:
        """The log lines the bot stored since the last scan (what the table message will show)."""
        if self.harness is None or self.harness.bot is None:
            return
        table = self.harness.bot.sessions.tables.in_channel(self.fake.channel(self.channel).id)
        if table is None:
            return
        for line in log_of(table, table.moves, locale=table.language):
            key = (line.count, line.text)
            if key in self.lines_checked:
                continue
            self.lines_checked.add(key)
            leaked = [card for card in secret if card in line.text]
            assert not leaked, f"the public log shows hidden {leaked}: {line.text!r}"

    def scan_choices(self, choices: list[Any], own: set[str], secret: set[str]) -> None:
        """An autocomplete answer may show the caller's own cards, never anybody else's."""
        for choice in choices:
            leaked = [card for card in secret - own if card in f"{choice.name} {choice.value}"]
            assert not leaked, f"autocomplete shows another player's card {leaked}: {choice}"
            self.choices_checked += 1


async def poll(predicate: Any, *, timeout: float = 10.0, what: str = "the condition") -> Any:
    """Wait for a condition on the bot's own state (which changes without any Discord call, so the fake's
    wake-ups do not cover it): checked every few milliseconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (result := predicate()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
    return result


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


DELETE_ROUTE = "DELETE /channels/{channel_id}/messages/{message_id}"
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


def recent_lines(embeds: list[dict[str, Any]]) -> list[str]:
    """The log lines a version of the table message shows (its second embed, the one without a title)."""
    for embed in embeds[1:]:
        if not embed.get("title") and embed.get("description"):
            return [line for line in embed["description"].splitlines() if not line.startswith("… (earlier")]
    return []


def announced_log(message: FakeMessage) -> list[str]:
    """The game's log as the channel showed it, rebuilt from every version of the table message: each
    version shows the newest lines, the ones never shown before among them, so consecutive versions overlap
    and a line shown once is counted once. A line that was never shown leaves a gap the merge cannot bridge
    (and shows up as a missing or doubled line)."""
    log: list[str] = []
    for version in message.versions:
        window = recent_lines(version.embeds)
        overlap = next(
            (k for k in range(min(len(log), len(window)), 0, -1) if log[len(log) - k :] == window[:k]), 0
        )
        log.extend(window[overlap:])
    return log


ROOT = Path(__file__).parents[2]
COMMANDS_PAGE = ROOT / "docs" / "players" / "commands.md"
# Spans of the README and the documentation site that start with a slash but are no command: the container's
# volume, a placeholder, the metrics server's HTTP paths, Discord's API paths and the web pages' paths.
NOT_COMMANDS = {"/data", "/<game>", "/<name>", "/metrics", "/healthz", "/", "/activity"}


def documentation() -> dict[str, str]:
    """The README and every page of the site (the drafts in docs/incoming/ are not pages), by path."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return {
        str(page.relative_to(ROOT)): page.read_text(encoding="utf-8")
        for page in pages
        if "incoming" not in page.relative_to(ROOT).parts
    }


def _synced_commands(harness: Harness) -> dict[str, set[str]]:
    """Every command and group of the running bot's tree as a client in English or German types it (`insomnia
    play`, `insomnia ausspielen`), with the names of its options in that language."""
    assert harness.bot is not None
    known: dict[str, set[str]] = {}
    for command in walk(list(harness.bot.tree.get_commands(type=discord.AppCommandType.chat_input))):
        for locale in ("en", "de"):
            path = command_path(command, locale)
            words = usage(command, locale).split(" ")[len(path.split(" ")) :]
            known[path] = {word.strip("[]") for word in words}
            if command.parent is not None:
                known.setdefault(command_path(command.parent, locale), set())
    return known


def _named_command(span: str, known: dict[str, set[str]]) -> bool:
    """Whether a README span like `/malice play card to`, `/history [game]` or `/regeln spiel:` names a real
    command with real options (an option may carry a value: `language:<English|Deutsch|server default>`)."""
    words = re.sub(r":(<[^>]*>|\S*)", "", span[1:]).split()
    for cut in range(len(words), 0, -1):
        path = " ".join(words[:cut])
        if path in known:
            return all(word.strip("[]") in known[path] for word in words[cut:])
    return False


async def test_the_commands_page_lists_every_command_with_all_its_options(harness: Harness) -> None:
    """From the running bot's command tree, both ways: each command with every option (required ones bare,
    optional ones in brackets) is in the command table of the players' Commands page, each command the table
    names is in the tree exactly so, and every command the README or any page of the site names anywhere (in
    English or German) exists with its options."""
    table = COMMANDS_PAGE.read_text(encoding="utf-8").split("\n| command | what it does |\n", 1)[1]
    documented = set(re.findall(r"`(/[^`]+)`", table))
    assert harness.bot is not None
    usages = [line.split("`")[1] for line in help_lines(harness.bot.tree)]
    assert len(usages) > 20
    assert [u for u in usages if u not in documented] == [], "commands missing from the Commands page's table"
    assert sorted(documented - set(usages)) == [], "the Commands page names commands the bot does not have"
    known = _synced_commands(harness)
    wrong = {}
    for page, text in documentation().items():
        named = {span for span in re.findall(r"`(/[^`/ ]+(?: [^`]*)?)`", text) if span not in NOT_COMMANDS}
        if bad := sorted(span for span in named if not _named_command(span, known)):
            wrong[page] = bad
    assert wrong == {}, "the documentation names commands or options the bot does not have"
    everywhere = "\n".join(documentation().values())
    assert len(set(re.findall(r"`(/[^`/ ]+(?: [^`]*)?)`", everywhere))) > 40
