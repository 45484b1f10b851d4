"""The Activity trusts nothing from the browser (issue 33): every request of its API is made here as a hostile
page could make it, against the bot and the fake Discord (no browser needed: the checks are the server's).

- a forged token, no token, a used or unknown code: refused, nothing stored;
- a token of another user: he is who Discord says the token is, never who the page claims: a player who did
  not launch the Activity is not in its instance; a spectator's token acting for a seated player is refused
  with the session's own sentence in his language;
- a player acting for another seat (not his turn), or at a table of another channel than the one his
  Activity runs in: refused, nothing stored;
- a spectator's feed has no hand and no hidden card; a player's feed has his own hand only;
- the client secret is in no page, asset or answer.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot import render
from tests.e2e.fake_activity import CLIENT_SECRET
from tests.e2e.fake_discord import (
    APPLICATION_COMMAND,
    APPLICATION_ID,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeDiscord,
    InteractionState,
)
from tests.e2e.harness import Harness
from tests.e2e.test_activity import Table
from tests.e2e.test_game_support import hidden_cards, poll

pytestmark = pytest.mark.bot(
    web_port=0,
    web_secret=SecretStr("e2e-web-secret-0123456789"),
    discord_client_id=APPLICATION_ID,
    discord_client_secret=SecretStr(CLIENT_SECRET),
)


class Page:
    """What a page may send: any header, any body."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.api = http, base + "/activity/api/"

    async def token(self, code: str) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.api + "token", json={"code": code}) as answer:
            return answer.status, await answer.json()

    async def table(self, token: str, instance: str) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"}
        async with self.http.get(
            self.api + "table", params={"instance": instance}, headers=headers
        ) as answer:
            return answer.status, await answer.json()

    async def click(self, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"}
        async with self.http.post(self.api + "click", json=body, headers=headers) as answer:
            return answer.status, await answer.json()


async def test_nothing_from_the_browser_is_trusted(harness: Harness) -> None:
    fake, bot = harness.fake, harness.bot
    assert bot is not None and bot.web is not None
    fake.members["carol"].locale = "de"
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    # Activities on: the bot's sync kept Discord's Entry Point command beside its own (no 50240).
    assert [c["name"] for c in fake.global_commands if c["type"] == 4] == ["launch"]
    assert "activity" in [c["name"] for c in fake.global_commands]
    await alice.slash("malice challenge", opponent=bob, turns=3)
    table = Table(harness)
    await table.opened()
    await poll(lambda: bot.sessions.presenter.message_id(table.id), what="the lobby")
    instance = await table.launch(alice)
    launched = await carol.slash("activity")  # the command list's entry launches it too
    assert launched.kind == "launch" and fake.launches[-1] == (carol.id, instance)  # the same instance
    await bob.click(table.message(), "Accept")
    record = await poll(
        lambda: (r := table.record()) is not None and r.game is not None and r, what="the deal"
    )
    # Another channel's table: Dave against the computer in #lounge.
    await dave.slash("malice challenge", opponent=fake.bot_user, turns=3, channel="lounge")
    lounge = Table(harness, "lounge")
    await lounge.opened()
    await bot.sessions.idle()
    stored = {t.id: len(await harness.store.actions(t.id)) for t in (table, lounge)}

    async with aiohttp.ClientSession() as http:
        page = Page(http, bot.web.base)
        # Codes: the secret stays with the bot; a code works once; a made-up code not at all.
        status, body = await page.token(fake.authorize_code(alice))
        assert status == 200
        alice_token = body["access_token"]
        code = fake.authorize_code(carol)
        carol_token = (await page.token(code))[1]["access_token"]
        assert (await page.token(code))[0] == 401
        assert (await page.token("made-up"))[0] == 401
        bob_token = (await page.token(fake.authorize_code(bob)))[1]["access_token"]

        # A forged token, or none: Discord does not know it (and is asked once about each, not each time).
        asked = len(fake.calls("GET /users/@me"))
        for forged in ("tok-" + "0" * 24, alice_token[:-1] + "x", ""):
            status, body = await page.table(forged, instance)
            assert status == 401 and body["error"], body
            status, _ = await page.click(forged, {"instance": instance, "table": table.id, "token": "end"})
            assert status == 401
        assert len(fake.calls("GET /users/@me")) == asked + 2
        # Bob is seated but did not launch the Activity: Discord does not list him in the instance.
        status, body = await page.table(bob_token, instance)
        assert status == 403 and "not yours" in body["error"], body
        # Alice's token at an instance that is not there.
        assert (await page.table(alice_token, "i-999-forged"))[0] == 403

        # The mover's legal move, tried by everyone else.
        mover = record.game.current_player
        move = render.token(record.kind, record.game.legal_actions()[0])
        await table.launch(bob)  # now Discord lists him: he may read, and act for his own seat only
        other_token = alice_token if mover == str(bob.id) else bob_token
        body = {"instance": instance, "table": table.id, "token": move, "seq": record.seq}
        # Carol, a spectator (German): the session's own refusal, in her language.
        status, answer = await page.click(carol_token, body)
        assert status == 409 and "nicht" in answer["error"].lower(), answer
        # The other seated player acting in the mover's turn, with the mover's own move.
        status, answer = await page.click(other_token, body)
        assert status == 409 and "turn" in answer["error"].lower(), answer
        # Alice at #lounge's table from her Activity in #games.
        lounge_record = lounge.record()
        lounge_body = {"instance": instance, "table": lounge.id, "token": "end", "seq": lounge_record.seq}
        status, answer = await page.click(alice_token, lounge_body)
        assert status == 403 and "not in the channel" in answer["error"], answer
        # A lobby's own buttons and Discord's dialogs are no way around it either.
        for token in ("move", "hand", "play", "x" * 200):
            assert (await page.click(alice_token, {**body, "token": token}))[0] in (400, 403, 409)
        # Strict bodies (issue 38): a boolean is no table (JSON's true was table 1), an id past 2**63-1 no id
        # (it was a 500 from SQLite), a number in a string no number: 400 with a sentence, nothing played.
        mover_token = alice_token if mover == str(alice.id) else bob_token
        for odd in (
            {"table": True},
            {"table": 2**70},
            {"table": str(table.id)},
            {"seq": True},
            {"seq": 2**64},
            {"instance": 7},
            {"token": ["end"]},
        ):
            status, answer = await page.click(mover_token, {**body, **odd})
            assert status == 400 and answer["error"] == "This request is not understood.", (odd, answer)

        # Feeds: the spectator's has no hand and no hidden card; Alice's has her own hand only. Discord is
        # asked who a token is once a minute at most, not at every request.
        asked = len(fake.calls("GET /users/@me"))
        status, seen = await page.table(carol_token, instance)
        assert status == 200 and seen["hand"] is None and seen["moves"] == [] and not seen["seated"]
        game = table.record().game
        text = json.dumps(seen, ensure_ascii=False)
        leaked = [c for c in hidden_cards(game) if c in _visible(seen)]
        assert not leaked, leaked
        status, mine = await page.table(alice_token, instance)
        assert len(fake.calls("GET /users/@me")) == asked
        own = {str(c) for c in game.view(str(alice.id)).hand}
        assert {c["card"] for c in mine["hand"]["cards"]} == own
        theirs = {str(c) for c in game.view(str(bob.id)).hand} - own
        assert not [c for c in theirs if c in _visible(mine) or f'"{c}"' in json.dumps(mine)]

        # The client secret: in no page, asset or answer.
        async with http.get(bot.web.base + "/activity/") as answer:
            index = await answer.text()
            # Only Discord's client may frame the Activity (the other pages: nobody), and it runs no eval.
            policy = answer.headers["Content-Security-Policy"]
            framing = policy.split("frame-ancestors ")[1]
            assert framing.startswith("https://discord.com ") and "'none'" not in framing
            assert "unsafe-eval" not in policy and "script-src 'self';" in policy
        assets = [index]
        for name in [p.split('"')[0] for p in index.split("assets/")[1:]]:
            async with http.get(bot.web.base + "/activity/assets/" + name) as answer:
                assets.append(await answer.text())
        async with http.get(bot.web.base + "/activity/api/config") as answer:
            assets.append(await answer.text())
        assert all(CLIENT_SECRET not in a for a in [*assets, text])

        await bot.sessions.idle()
        assert {t.id: len(await harness.store.actions(t.id)) for t in (table, lounge)} == stored

        # The mover's own move, sent twice (a double tap, a retry): stored once; the second is stale.
        mover_token = alice_token if mover == str(alice.id) else bob_token
        before = [a for a in await harness.store.actions(table.id) if a.actor == mover]
        status, first = await page.click(mover_token, body)
        assert status == 200 and first["ok"], first
        status, again = await page.click(mover_token, body)
        assert status == 409 and again["error"], again
        await bot.sessions.idle()
        mine = [a for a in await harness.store.actions(table.id) if a.actor == mover]
        assert len(mine) == len(before) + 1 and json.loads(mine[-1].action)["kind"] == "play"

        # A server that turned its pages off (/settings web off) has no Activity either.
        await harness.user("erin").slash("settings web", web="pages-off")
        status, body = await page.table(alice_token, instance)
        assert status == 403 and body["error"], body


def _visible(view: dict[str, Any]) -> str:
    """What a feed shows of the table besides the reader's own hand: board, log, seats, phase."""
    return " ".join(
        [view["board"], *view["log"], json.dumps(view["seats"], ensure_ascii=False), view["phase"] or ""]
    )


async def test_the_fake_takes_launch_activity_only_as_discord_does(fake_server: FakeDiscord) -> None:
    """Type 12 answers a command or a button of an app with Activities, with no data; nothing else."""
    fake = fake_server
    ids = iter(range(1, 100))

    def interaction(kind: int, user: str) -> InteractionState:
        n = next(ids)
        state = InteractionState(n, f"token-{n}", kind, fake.members[user], fake.channel("games").id, f"#{n}")
        state.source_message_id = None
        state.dispatched_at = fake.now()
        fake.interactions[n] = state
        fake._by_token[state.token] = state
        return state

    async with aiohttp.ClientSession() as http:

        async def answer(state: InteractionState, body: dict[str, Any]) -> int:
            url = f"{fake.api_base}/interactions/{state.id}/{state.token}/callback"
            async with http.post(url, json=body) as response:
                return response.status

        assert await answer(interaction(MODAL_SUBMIT, "alice"), {"type": 12}) == 400
        assert await answer(interaction(APPLICATION_COMMAND, "alice"), {"type": 12, "data": {"x": 1}}) == 400
        fake.activity_enabled = False
        assert await answer(interaction(APPLICATION_COMMAND, "alice"), {"type": 12}) == 400
        fake.activity_enabled = True
        assert fake.instances == {}
        assert await answer(interaction(APPLICATION_COMMAND, "alice"), {"type": 12}) == 200
        assert await answer(interaction(MESSAGE_COMPONENT, "bob"), {"type": 12}) == 200
        # A bulk overwrite of the global commands without the Entry Point command: 50240, as on Discord.
        put = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(put, json=[], headers={"Authorization": f"Bot {fake.token}"}) as response:
            assert response.status == 400 and (await response.json())["code"] == 50240
    instance = fake.instance_of(fake.channel("games").id)
    assert instance is not None and len(fake.instances) == 1
    assert instance.users == [fake.members["alice"].id, fake.members["bob"].id]
    assert len(fake.violations) == 4
    fake.violations.clear()
