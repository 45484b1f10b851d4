"""Who reads what, in the session layer with the real engines and store: each player's DMs in the language he
last used, public lines in the table's language, both kept in the meta across a restart; refusals carry a key
the reader's language words."""

from __future__ import annotations

import pytest

from bot.discord_out import discord_words
from bot.reading import engine_notation
from bot.render.wording import refusal_text
from bot.sessions import NotAllowed
from tests.test_sessions import ALICE, BOB, CHANNEL, GUILD, manager


async def test_dms_and_public_lines_keep_their_languages_across_a_restart(store, announcer):
    sessions = await manager(store, announcer)
    sessions.languages.saw(ALICE, "de", GUILD, "de")  # alice and her server: German; bob: English
    sessions.languages.saw(BOB, "en-US")
    await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    assert "**Deine Hand**" in announcer.dms_to(ALICE)[0].content
    assert "**Your hand**" in announcer.dms_to(BOB)[0].content
    assert any("Runde 1" in text for text in announcer.public_texts())
    await sessions.close()

    row = await store.active_table(CHANNEL)
    assert row.meta["language"] == "de"
    assert row.meta["locales"] == {str(ALICE): "de", str(BOB): "en"}
    again = await manager(store, announcer)  # a new process knows nobody's client yet
    await again.resume_all()
    table = again.table_in(CHANNEL)
    assert table.language == "de"
    assert table.locale_of(str(ALICE)) == "de" and table.locale_of(str(BOB)) == "en"
    assert table.banner() == "♻️ Der Bot wurde neu gestartet: dieses Spiel geht weiter."
    await again.close()


async def test_a_refusal_is_worded_in_each_readers_language(store, announcer):
    sessions = await manager(store, announcer)
    await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    with pytest.raises(NotAllowed) as refused:
        await sessions.lobbies.start(CHANNEL, BOB)
    german, english = (discord_words(refusal_text(refused.value, lang)) for lang in ("de", "en-GB"))
    assert german == f"Nur der Gastgeber, <@{ALICE}>, kann das Spiel starten."
    assert english == f"Only the host, <@{ALICE}>, can start the game."
    await sessions.close()


@pytest.mark.parametrize(
    ("params", "locale", "engine"),
    [
        ({"card": "DH", "to": "mitte2"}, "de", {"card": "QH", "to": "centre2"}),
        ({"card": "Kreuz Bube", "to": "seite3"}, "de", {"card": "JC", "to": "side3"}),
        ({"card": "zahlstapel", "to": "Mitte"}, "de", {"card": "payoff", "to": "centre"}),
        ({"card": "QH"}, "de", {"card": "QH"}),  # English notation, as autocomplete fills it in, still reads
        ({"card": "10Ka"}, "de", {"card": "10D"}),
        ({"card": "BH", "to": "mitte"}, "en-US", {"card": "BH", "to": "mitte"}),  # not English: refused later
        ({"amount": "3"}, "de", {"amount": "3"}),
    ],
)
def test_slash_input_in_german_notation_reaches_the_engine_in_its_own(params, locale, engine):
    assert engine_notation(params, locale) == engine
