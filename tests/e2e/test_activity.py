"""The game as a Discord Activity (issue 33), in a real headless Chromium (tests/e2e/browser.py) inside a
stand-in for Discord's client (tests/e2e/activity_client.py), the fake Discord serving OAuth2's token
exchange, `/users/@me` and the Activity instance (tests/e2e/fake_activity.py):

- a whole Malice game played by taps against the computer (a card, then where it goes), launched from the
  table message's "Play here" (LAUNCH_ACTIVITY); every move stored once; the Discord table message follows;
  no hidden card on the player's page but his own hand; screenshots at phone and desktop size;
- a Malice game between a player in the Activity and one using Discord's Move dialog: each Activity move is
  on the Discord table message before the other moves;
- an Insomnia deal with two players in the Activity and a computer, from the lobby (Join, Add computer and
  Start tapped there too) to its end, one of them reading German (screenshots in German); bids with the
  stepper.

Screenshots land in the test's folder (ACTIVITY_SCREENSHOTS: a folder to copy them to).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot import render
from bot.discord_out import discord_words
from bot.games.ai import choose_action
from bot.sessions.view import log_of
from bot.web.activity import CLIENT
from tests.e2e.activity_client import Player, stand_in
from tests.e2e.browser import BROWSER_MISSING, Browser
from tests.e2e.fake_activity import CLIENT_SECRET
from tests.e2e.fake_discord import APPLICATION_ID, FakeMessage, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import hidden_cards, poll
from tests.e2e.test_user_install import select_of
from tests.e2e.test_web import chromium  # noqa: F401  (the session's one browser)

pytestmark = [
    pytest.mark.skipif(BROWSER_MISSING is not None, reason=BROWSER_MISSING or ""),
    pytest.mark.skipif(
        not (CLIENT / "index.html").is_file(),
        reason="the Activity's page is not built: cd client && npm ci && npm run build (.ci/run does)",
    ),
    pytest.mark.bot(
        web_port=0,
        web_secret=SecretStr("e2e-web-secret-0123456789"),
        discord_client_id=APPLICATION_ID,
        discord_client_secret=SecretStr(CLIENT_SECRET),
    ),
]
PHONE, DESKTOP = (360, 740), (1280, 800)


def shots(tmp_path: Path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


def keep_shots(folder: Path) -> None:
    copy_to = os.environ.get("ACTIVITY_SCREENSHOTS")
    if copy_to:
        shutil.copytree(folder, copy_to, dirs_exist_ok=True)


class Table:
    """The channel's table as the bot and the fake Discord hold it."""

    def __init__(self, harness: Harness, channel: str = "games") -> None:
        self.harness, self.fake = harness, harness.fake
        assert harness.bot is not None
        self.bot = harness.bot
        self.channel = self.fake.channel(channel)
        self.id = 0
        self.message_id: int | None = None

    async def opened(self) -> Any:
        record = await poll(lambda: self.bot.sessions.tables.in_channel(self.channel.id), what="the table")
        self.id = record.id
        return record

    def record(self) -> Any:
        return self.bot.sessions.tables.by_id(self.id)

    def message(self) -> FakeMessage:
        """The table message (kept once known: a finished table's session lets it go)."""
        self.message_id = self.bot.sessions.presenter.message_id(self.id) or self.message_id
        assert self.message_id is not None
        return self.fake.messages[self.message_id]

    async def launch(self, user: UserHandle) -> str:
        """`user` presses "Play here" on the table message: Discord launches the Activity for him (type 12)
        and he is in the channel's instance."""
        reply = await user.click(self.message(), "Play here")
        assert reply.kind == "launch" and not reply.messages, reply
        instance = self.fake.instance_of(self.channel.id)
        assert instance is not None and user.id in instance.users
        return instance.instance_id

    def page_html(self, user: UserHandle, instance: str) -> str:
        web = self.bot.web
        assert web is not None
        return stand_in(
            base=web.base,
            client_id=APPLICATION_ID,
            instance=instance,
            channel_id=self.channel.id,
            guild_id=self.fake.guild_id,
            code=self.fake.authorize_code(user),
            user=user,
        )

    async def stored_by(self, user: UserHandle) -> list[Any]:
        return [a for a in await self.harness.store.actions(self.id) if a.actor == str(user.id)]

    async def following(self, seq: int) -> str:
        """Wait until the Discord table message shows move `seq` (its log line, worded as the bot words it);
        returns that line."""
        await self.bot.sessions.idle()
        record = self.record()
        if record is None:  # finished: the tables in play let it go; the message shows the result
            return ""
        said = [
            discord_words(line.text)
            for line in log_of(record, record.moves, locale=record.language)
            if line.count == seq
        ]
        if said:
            await self.fake.wait_for(lambda: said[-1] in self.message().text, what=f"move {seq} on Discord")
        return said[-1] if said else ""


def places_of_first_card(player: Player) -> list[tuple[str, str]]:
    """Tap the first playable card; the place buttons it offers, as (text, title)."""
    player.app.locator("button.card-chip.playable").first.click()
    player.app.wait_for_selector("#where button[data-token]")
    return [
        (b.inner_text(), b.get_attribute("title") or "")
        for b in player.app.locator("#where button[data-token]").all()
    ]


def malice_choice(token: str) -> bool:
    parts = token.split("-")
    return len(parts) >= 4 and parts[3].startswith("centre")


def malice_turn(player: Player) -> str:
    """One move by taps: a card onto a centre stack when one goes there, else End turn."""
    seq = player.seq()
    token = player.tap_card_to(malice_choice)
    if token is None:
        ends = player.tokens('#moves button[data-token="end"]')
        token = ends[0] if ends else player.tap_card_to(lambda _: True)
        if ends:
            player.tap('#moves button[data-token="end"]')
    assert token is not None, player.text()
    player.wait_seq_past(seq)
    return token


@pytest.mark.slow
async def test_a_whole_malice_game_by_taps_against_the_computer(
    harness: Harness,
    chromium: Browser,  # noqa: F811  (web's session browser, imported)
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-activity-malice-1")
    fake = harness.fake
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=fake.bot_user, turns=6)
    table = Table(harness)
    await table.opened()
    await poll(lambda: table.bot.sessions.presenter.message_id(table.id), what="the table message")
    instance = await table.launch(alice)
    html = table.page_html(alice, instance)
    player: Player = await chromium.run(lambda b: Player(b, html, PHONE, "en-US"))
    folder = shots(tmp_path)
    taps = 0
    checked_hidden = False
    while await chromium.run(lambda _: player.wait_turn()):
        record = table.record()
        if not checked_hidden and record is not None and record.game is not None:
            # Her page shows her own hand, never the computer's hand nor the face-down piles.
            mine = {str(c) for c in record.game.view(str(alice.id)).hand}
            page = await chromium.run(
                lambda _: player.app.inner_text("#board") + player.app.inner_text("#log")
            )
            leaked = [c for c in hidden_cards(record.game) - mine if c in page]
            assert not leaked, leaked
            # The turn clock, counted down in her language.
            assert re.search(r"Time runs out in \d+ seconds", page), page[:400]
            await chromium.run(lambda _: player.page.screenshot(path=str(folder / "activity-en-360.png")))
            # A card tapped: its places as short buttons (the card and where it goes, so they line up on a
            # phone), each with its whole sentence as the description (issue 38).
            where = await chromium.run(lambda _: places_of_first_card(player))
            assert where and all("→" in text and len(text) <= 24 for text, _ in where), where
            assert all(title.startswith("Plays ") and len(title) > len(text) for text, title in where), where
            await chromium.run(
                lambda _: player.page.screenshot(path=str(folder / "activity-en-360-where.png"))
            )
            await chromium.run(
                lambda _: player.app.locator("button.card-chip.selected").click()
            )  # put it back
            checked_hidden = True
        await chromium.run(lambda _: malice_turn(player))
        taps += 1
        if taps == 1:  # the Discord table message follows the Activity's move
            assert await table.following(record.seq + 1)
    assert taps > 3
    await harness.bot.sessions.idle()  # type: ignore[union-attr]
    row = await harness.store.get_table(table.id)
    assert row.status == "finished"
    # Every tap stored once, as hers, and nothing else of hers.
    assert len(await table.stored_by(alice)) == taps
    assert "Game over" in table.message().text
    text = await chromium.run(lambda _: player.text())
    assert "Game over" in text
    # The result card: the table's picture, as the live page serves it, loaded inside the Activity.
    assert await chromium.run(lambda _: player.picture_loaded())
    await chromium.run(lambda _: player.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]}))
    await chromium.run(lambda _: player.page.screenshot(path=str(folder / "activity-en-1280-over.png")))
    # The rematch from the Activity: the next game against the computer opens, and her page goes with it.
    old = table.id
    await chromium.run(lambda _: player.tap('#controls button[data-token="rematch"]'))
    await table.opened()
    assert table.id != old
    await chromium.run(
        lambda _: player.app.wait_for_selector(f"body[data-version^='{table.id}.']", state="attached")
    )
    assert await chromium.run(lambda _: player.wait_turn()) or table.record().game.current_player != str(
        alice.id
    )
    await chromium.run(lambda _: player.close())
    keep_shots(folder)


@pytest.mark.slow
async def test_malice_between_the_activity_and_discords_buttons(
    harness: Harness,
    chromium: Browser,  # noqa: F811  (web's session browser, imported)
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-activity-malice-2")
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("malice challenge", opponent=bob, turns=3)
    table = Table(harness)
    await table.opened()
    await poll(lambda: table.bot.sessions.presenter.message_id(table.id), what="the lobby")
    instance = await table.launch(alice)
    await bob.click(table.message(), "Accept")
    await poll(lambda: (r := table.record()) is not None and r.game is not None, what="the deal")
    html = table.page_html(alice, instance)
    player: Player = await chromium.run(lambda b: Player(b, html, DESKTOP, "en-US"))
    folder = shots(tmp_path)
    taps = dialogs = 0
    while True:
        await table.bot.sessions.idle()
        record = table.record()
        if record is None or record.game is None or record.game.is_over:
            break
        if record.game.current_player == str(alice.id):
            assert await chromium.run(lambda _: player.wait_turn())
            if taps == 2:
                await chromium.run(
                    lambda _: player.page.screenshot(path=str(folder / "activity-en-1280.png"))
                )
            await chromium.run(lambda _: malice_turn(player))
            taps += 1
            await table.following(record.seq + 1)  # on Discord before Bob moves
        else:
            opened = await bob.click(table.message(), "Move")
            action = choose_action(record.game, record.game.current_player, f"activity/{record.seq}")
            token = render.token(record.kind, action)
            done = await bob.submit(opened, {select_of(opened, token): [token]})
            assert done.kind == "update"
            dialogs += 1
            # Alice's page follows Bob's move.
            await chromium.run(lambda _, seq=record.seq: player.wait_seq_past(seq))
    assert taps > 0 and dialogs > 0
    assert len(await table.stored_by(alice)) == taps
    assert len(await table.stored_by(bob)) == dialogs
    await chromium.run(lambda _: player.close())
    keep_shots(folder)


FINISHED = "body[data-state='finished']"


def shoot_both(player: Player, folder: Path, name: str) -> str:
    """Screenshots of the player's page at phone and desktop size; the page's text."""
    player.page.screenshot(path=str(folder / f"{name}-{PHONE[0]}.png"))
    player.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    player.page.screenshot(path=str(folder / f"{name}-{DESKTOP[0]}.png"))
    player.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    return player.text()


def insomnia_turn(player: Player) -> str:
    """One move by taps: a bid with the stepper (one up), else a card and its only place, else the first
    other move (pass, a rethrow)."""
    seq = player.seq()
    if player.app.locator("#bid:not([hidden])").count():
        if player.app.locator("#bid .plus:not([disabled])").count():
            player.tap("#bid .plus")
        token = player.tokens("#bid .go")[0]
        player.tap("#bid .go")
    else:
        found = player.tap_card_to(lambda _: True)
        if found is None:
            token = player.tokens("#moves button[data-token]")[0]
            player.tap(f'#moves button[data-token="{token}"]')
        else:
            token = found
    player.wait_seq_past(seq)
    return token


@pytest.mark.slow
async def test_an_insomnia_deal_with_two_players_in_the_activity(
    harness: Harness,
    chromium: Browser,  # noqa: F811  (web's session browser, imported)
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-activity-insomnia-1")
    fake = harness.fake
    fake.members["bob"].locale = "de"
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5, deals=1)
    table = Table(harness)
    await table.opened()
    await poll(lambda: table.bot.sessions.presenter.message_id(table.id), what="the lobby")
    pages: dict[str, Player] = {}
    for user, size, locale in ((alice, PHONE, "en-US"), (bob, PHONE, "de-DE")):
        instance = await table.launch(user)
        html = table.page_html(user, instance)
        pages[str(user.id)] = await chromium.run(lambda b, h=html, s=size, lo=locale: Player(b, h, s, lo))
    folder = shots(tmp_path)
    # The lobby in the Activity: Bob joins there, Alice starts there.
    b_page, a_page = pages[str(bob.id)], pages[str(alice.id)]
    await chromium.run(lambda _: b_page.app.wait_for_selector('#controls button[data-token="join"]'))
    await chromium.run(lambda _: b_page.page.screenshot(path=str(folder / "activity-de-360-lobby.png")))
    await chromium.run(lambda _: b_page.tap('#controls button[data-token="join"]'))
    await poll(lambda: str(bob.id) in (table.record().players if table.record() else []), what="Bob seated")
    # The host adds a computer seat from the Activity, then starts.
    await chromium.run(lambda _: a_page.tap('#controls button[data-token="addbot"]'))
    await poll(lambda: len(table.record().players) == 3, what="the computer seated")
    await chromium.run(lambda _: a_page.app.wait_for_selector('#controls button[data-token="start"]'))
    await chromium.run(lambda _: a_page.tap('#controls button[data-token="start"]'))
    await poll(lambda: (r := table.record()) is None or r.game is not None, what="the deal")
    moves: dict[str, int] = {str(alice.id): 0, str(bob.id): 0}
    shot = False
    while True:
        await table.bot.sessions.idle()
        record = table.record()
        if record is None or record.game is None or record.game.is_over:
            break
        mover = record.game.current_player
        page = pages[mover]
        assert await chromium.run(lambda _, p=page: p.wait_turn())
        if mover == str(bob.id) and not shot:
            text = await chromium.run(lambda _, p=page: shoot_both(p, folder, "activity-de"))
            assert "Deine Hand" in text or "Du bist dran" in text, text[:300]
            shot = True
        await chromium.run(lambda _, p=page: insomnia_turn(p))
        moves[mover] += 1
    row = await harness.store.get_table(table.id)
    assert row.status == "finished"
    assert all(moves.values()), moves
    for user in (alice, bob):
        assert len(await table.stored_by(user)) == moves[str(user.id)]
    for page in pages.values():
        await chromium.run(lambda _, p=page: p.app.wait_for_selector(FINISHED, state="attached"))
        await chromium.run(lambda _, p=page: p.close())
    keep_shots(folder)
