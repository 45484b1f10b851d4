"""Discord's renderer (bot/discord_out.py, issue 40): the render floor writes people, moments, channels and
roles as references and a button's click as a structured action; Discord's side alone draws them as its
markup and encodes the persistent custom ids, which keep their format (messages sent before a restart are
still clicked with the ids they carry)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_out import custom_id, decode, discord_kwargs, discord_message, discord_words, encode
from bot.render.common import Button, Embed, EmbedField, Message, channel, click, moment, name, role


def test_references_become_discords_markup_and_nothing_else_changes():
    words = f"**{name('7')}** plays in {channel(9)} until {moment(1_900_000_000)}; {role(4)} hosts"
    assert discord_words(words) == "**<@7>** plays in <#9> until <t:1900000000:R>; <@&4> hosts"
    assert discord_words("Computer 1 · *plain*") == "Computer 1 · *plain*"
    assert "\x0e" not in discord_words(name("ai:1") + name("@pot"))


def test_every_text_of_a_message_is_drawn_and_only_the_people_it_names_may_be_pinged():
    message = Message(
        content=f"{name('1')}, your turn",
        mentions=[1, 2],
        embeds=[
            Embed(
                title=name("3"),
                description=moment(5, "f"),
                footer=channel(6),
                fields=[EmbedField(name=name("1"), value=name("3"))],
            )
        ],
        rows=[[Button(label=f"Kick {name('3')}", table=1, action=click("x"))]],
    )
    drawn = discord_message(message)
    assert drawn.content == "<@1>, your turn" and drawn.mentions == [1], "2 is named nowhere: no ping"
    assert [drawn.embeds[0].title, drawn.embeds[0].description, drawn.embeds[0].footer] == [
        "<@3>",
        "<t:5:f>",
        "<#6>",
    ]
    assert drawn.rows[0][0].label == "Kick <@3>"
    assert not any("\x0e" in text or "\x0f" in text for text in drawn.texts())
    kwargs = discord_kwargs(message)
    assert kwargs["content"] == "<@1>, your turn"
    assert [u.id for u in kwargs["allowed_mentions"].users] == [1]


@pytest.mark.parametrize(
    ("button", "sent"),
    [
        (Button(label="Join", table=12, action=click("join")), "cardtable:12:join"),
        (Button(label="Bid", table=12, action=click("bid-3", 45)), "cardtable:12:bid-3:45"),
        (Button(label="Back", table=12, action=click("back", 34), steers="replay"), "cardreplay:12:34:back"),
        (Button(label="Replay", table=12, action=click("open", 0), steers="replay"), "cardreplay:12:0:open"),
    ],
)
def test_custom_ids_keep_the_format_old_messages_carry(button, sent):
    assert custom_id(button) == sent
    assert decode(sent, button.steers) == (12, button.action)


def test_a_link_has_no_custom_id_and_foreign_ids_decode_to_nothing():
    with pytest.raises(ValueError):
        custom_id(Button(label="Watch", url="https://example.org", style="link"))
    assert decode("lb:all:0:all:chips") is None and decode("cardreplay:1:2:sideways", "replay") is None


@given(
    table=st.integers(min_value=0, max_value=10**19),
    token=st.from_regex(r"[A-Za-z0-9\-]{1,40}", fullmatch=True),
    seq=st.none() | st.integers(min_value=0, max_value=10**9),
)
def test_every_table_action_round_trips_through_its_custom_id(table, token, seq):
    assert decode(encode(table, click(token, seq))) == (table, click(token, seq))


def test_a_reference_at_the_edge_of_stripped_or_split_words_is_still_drawn():
    """Words are trimmed and split on their way (a banner over an empty lobby, a receipt's lines): a person
    named first must still reach Discord as his mention, never as the reference's bare characters."""
    words = f"\n{name('100000000000000001')} hat den Tisch abgebrochen.\n"
    assert discord_words(words.strip()) == "<@100000000000000001> hat den Tisch abgebrochen."
    assert discord_words(" ".join(words.split())) == "<@100000000000000001> hat den Tisch abgebrochen."
