"""Pictures are a bonus: a table opened with `pictures:False`, and a channel where the bot may not attach
files, both play whole games in text, through the real bot and the fake Discord."""

from __future__ import annotations

from tests.e2e.fake_discord import ATTACH_FILES
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, table_message

MESSAGE_WRITES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
)


async def play_to_the_end(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    people = {str(alice.id): alice, str(bob.id): bob}
    while (game := live_game(harness)) is not None and not game.is_over:
        user = people[game.current_player]
        if game.public_view().phase == "tricks":
            choices = await user.autocomplete("insomnia play", "card", "")
            await user.slash("insomnia play", card=choices[0].value)
        else:
            await user.slash("insomnia pass")
    await fake.wait_for(
        lambda: "Game over" in table_message(fake, "Insomnia · table").text, what="the result on the table"
    )


def files_sent(harness: Harness, channel_id: int) -> list:
    """The channel writes that carried a file and went through."""
    return [
        call
        for route in MESSAGE_WRITES
        for call in harness.fake.calls(route)
        if f"/channels/{channel_id}/" in call.path and call.status < 300 and call.body.get("__attachments__")
    ]


async def test_a_table_opened_without_pictures_writes_text_only(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-pictures-off-1")
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5, deals=1, pictures=False)
    lobby = table_message(fake, "Insomnia · table")
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    hand = await alice.slash("hand")
    assert not hand.message.attachments, "no picture of the hand either"
    await play_to_the_end(harness)
    assert files_sent(harness, fake.channel("games").id) == []
    assert not lobby.attachments


async def test_without_attach_files_the_game_goes_on_in_text_and_says_so(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-pictures-off-2")
    fake = harness.fake
    fake.bot_permissions &= ~ATTACH_FILES
    alice, bob = harness.user("alice"), harness.user("bob")
    await alice.slash("insomnia new", chips=5, deals=1)
    lobby = table_message(fake, "Insomnia · table")
    # By slash commands: no click on the table message lends its token, so the presenter writes the picture
    # in the channel, which Discord refuses without Attach Files.
    await bob.slash("insomnia join")
    await alice.slash("insomnia start")
    await play_to_the_end(harness)
    channel_id = fake.channel("games").id
    assert files_sent(harness, channel_id) == []
    refused = [
        c
        for route in MESSAGE_WRITES
        for c in fake.calls(route)
        if c.status == 403 and f"/{channel_id}/" in c.path
    ]
    assert len(refused) == 1, "refused once, then text only"
    assert refused[0].body.get("__attachments__"), "it was the picture that was refused"
    assert any("Attach Files" in version for version in lobby.history), "the channel is told why"
