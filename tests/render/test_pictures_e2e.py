"""Pictures through the real bot and the fake Discord: a whole Insomnia game in which every write of the table
message carries the table picture, and `/hand` answers privately with the hand picture."""

from __future__ import annotations

import io
import json

from PIL import Image

import bot.discord_out
from tests.e2e.conftest import fake_server, harness  # noqa: F401 (the end-to-end fixtures)
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, table_message


async def test_every_table_message_write_carries_a_png_and_hand_answers_with_one_privately(
    harness: Harness,  # noqa: F811
    monkeypatch,
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-pictures-1")
    sent = []  # every picture the cog turned into a file, to decode what went over the wire
    real_file = bot.discord_out._file

    def spy(picture):
        sent.append(picture)
        return real_file(picture)

    # The announcer and every answer turn pictures into files in one module.
    monkeypatch.setattr(bot.discord_out, "_file", spy)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5, deals=1)
    lobby = table_message(fake, "Insomnia · table")
    await bob.click(lobby, "Join")
    started = len(fake.requests)
    await alice.click(lobby, "Start")

    people = {str(alice.id): alice, str(bob.id): bob}
    hand = None
    while (game := live_game(harness)) is not None and not game.is_over:
        user = people[game.current_player]
        if hand is None:
            hand = await user.slash("hand")
        if game.public_view().phase == "tricks":
            choices = await user.autocomplete("insomnia play", "card", "")
            await user.slash("insomnia play", card=choices[0].value)
        else:
            await user.slash("insomnia pass")
    await fake.wait_for(lambda: "Game over" in lobby.text, what="the table message shows the result")

    # The table message is written by edits (in the channel, or through the token of the last click answered
    # on it: Start's), and by the update that answers a click on it (Start).
    writes = [
        r
        for r in fake.requests[started:]
        if (r.method == "PATCH" and r.path.endswith(f"/messages/{lobby.id}"))
        or (r.method == "PATCH" and "/webhooks/" in r.path and r.path.endswith("/messages/@original"))
        or (r.route.endswith("/callback") and r.body.get("type") == 7)
    ]
    # How many writes a game takes depends on the presenter's pacing; the start and the result always come.
    assert len(writes) >= 2 and "Game over" in json.dumps(writes[-1].body)
    pictures = {p.data for p in sent}
    sizes = {len(data) for data in pictures}
    for n, write in enumerate(writes):
        # The table while the game runs; the result card once it is over (the last write).
        drawn = "insomnia-result.png" if n == len(writes) - 1 else "insomnia-table.png"
        (attachment,) = write.body["__attachments__"]
        assert attachment["filename"] == drawn and attachment["size"] in sizes
        embeds = write.body["embeds"] if "embeds" in write.body else write.body["data"]["embeds"]
        assert embeds[0]["image"]["url"] == f"attachment://{drawn}"
    for data in pictures:
        assert Image.open(io.BytesIO(data)).format == "PNG"

    # /hand answers at once (an interaction callback, ephemeral) with the file in the same request.
    assert hand is not None and hand.ephemeral and "Your hand" in hand.text
    (callback,) = [r for r in fake.requests if r.path.startswith(f"/interactions/{hand._state.id}/")]
    assert [a["filename"] for a in callback.body["__attachments__"]] == ["insomnia-hand.png"]
    assert callback.body["data"]["flags"] & 64  # ephemeral: only the caller sees it
    assert [a["filename"] for a in lobby.attachments] == ["insomnia-result.png"]  # the picture replaced
    assert not any(m.attachments for m in fake.channel_messages("games") if m.id != lobby.id)
