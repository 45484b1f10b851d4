"""German and English at one table, through the real bot and the fake Discord: private answers (/hand,
/rules, /help, refusals, the engines' own included, autocomplete labels) in each user's own language, DMs in
the player's language, public messages in the server's; card input in German notation; `/settings language`
changes the public language for managers only."""

from __future__ import annotations

import pytest

from bot.games.cards import Rank, standard_deck
from bot.games.insomnia import deck_for
from bot.i18n.cards import format_card
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, poll, table_message

SEED = "e2e-languages-1"


def german(user) -> None:
    user.user.locale = "de"


async def test_a_german_and_an_english_player_at_one_table_in_a_german_server(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    fake.guild_locale = "de"
    alice, bob = harness.user("alice"), harness.user("bob")
    german(alice)  # bob's client stays en-US

    await alice.slash("insomnia new", chips=10)
    lobby = await fake.wait_for_message(channel="games", contains="**Insomnia**-Tisch eröffnet")
    assert "Beitreten" in lobby.button_labels  # the server's language, whoever reads it

    await bob.click(lobby, "Beitreten")  # the lobby is redrawn with his seat: that is his answer
    assert f"<@{bob.id}>" in table_message(fake, "Insomnia · Tisch").text
    again = await bob.click(lobby, "Beitreten")
    assert again.text == "You are already seated at this table."
    again = await alice.slash("insomnia join")
    assert again.text == "Du sitzt schon an diesem Tisch."

    await alice.slash("insomnia start")
    await fake.wait_for_message(channel="games", contains="· Runde 1")
    table = table_message(fake, "Insomnia · Tisch")
    assert "Phase 1a: Tauschen" in table.text and "Stage" not in table.text
    await fake.wait_for(lambda: alice.dms() and bob.dms(), what="both hands by DM")
    assert "**Deine Hand**" in alice.dms()[0].text
    assert "**Your hand**" in bob.dms()[0].text

    mine, his = await alice.slash("hand"), await bob.slash("hand")
    assert mine.ephemeral and "**Deine Hand**" in mine.text and "Your hand" not in mine.text
    assert his.ephemeral and "**Your hand**" in his.text

    game = live_game(harness)
    if game.current_player == str(bob.id):
        refused = await alice.slash("insomnia pass")
        assert refused.text == f"Du bist nicht am Zug: <@{bob.id}> ist dran."
        await bob.slash("insomnia pass")  # keeps his hand: alice exchanges next
    else:
        refused = await bob.slash("insomnia pass")
        assert refused.text == f"It is not your turn: <@{alice.id}> is to play."
    game = live_game(harness)
    assert game.current_player == str(alice.id) and game.public_view().phase == "exchange"

    # Autocomplete: her cards in her notation (B D K A, ♣ ♠ ♥ ♦ symbols), values the engine's with the move.
    hand = game.view(str(alice.id)).hand
    choices = await alice.autocomplete("insomnia exchange", "card", "")
    assert {c.name for c in choices} == {format_card(c, "de") for c in hand}
    seq = harness.bot.sessions.tables.in_channel(fake.channel("games").id).seq
    assert {c.value for c in choices} == {f"{c}@{seq}" for c in hand}
    # A face card shows the difference: typed as a German player writes it.
    card = next((c for c in hand if c.rank is not None and c.rank.value in (11, 12)), hand[0])
    typed = format_card(card, "de", pretty=False)  # e.g. "DKr" for the queen of clubs
    assert [c.value for c in await alice.autocomplete("insomnia exchange", "card", typed.lower())] == [
        f"{card}@{seq}"
    ]
    answer = await alice.slash("insomnia exchange", card=typed)
    assert answer.ephemeral and "**Deine Hand**" in answer.text
    actions = await harness.store.actions(game_id(harness))
    assert [a.action for a in actions if a.actor == str(alice.id)][-1] == (
        f'{{"kind":"exchange","card":"{card}"}}'
    )
    log = await fake.wait_for_message(channel="games", contains="tauscht eine Karte")
    assert "exchanges" not in log.text

    rules_de, rules_en = await alice.slash("rules", game="malice"), await bob.slash("rules", game="malice")
    assert (
        "Malice: ein Wettlauf im Stil von Spite and Malice" in rules_de.text and "Hausregeln" in rules_de.text
    )
    assert "Malice: a Spite-and-Malice race" in rules_en.text and "House decisions" in rules_en.text
    help_de, help_en = await alice.slash("help"), await bob.slash("help")
    assert "Cardtable-Befehle" in help_de.text and "`/regeln [spiel]`" in help_de.text
    assert "Cardtable commands" in help_en.text and "`/rules [game]`" in help_en.text


def game_id(harness: Harness) -> int:
    table = harness.bot.sessions.tables.in_channel(harness.fake.channel("games").id)
    return table.id


async def test_settings_language_changes_the_public_language_and_only_managers_may(harness: Harness) -> None:
    fake = harness.fake
    alice, erin = harness.user("alice"), harness.user("erin")  # erin has Manage Server, alice has not
    german(alice)
    synced = {c["name"]: c for c in fake.global_commands or fake.guild_commands.get(fake.guild_id, [])}
    assert int(synced["settings"]["default_member_permissions"]) == 1 << 5  # hidden from non-managers

    await alice.slash("insomnia new")
    lobby = await fake.wait_for_message(channel="games", contains="opened an **Insomnia** table")

    refused = await alice.slash("settings language", language="de")
    assert refused.ephemeral and refused.text == "Dafür brauchst du die Berechtigung Server verwalten."
    assert await harness.store.guild_language(fake.guild_id) is None

    done = await erin.slash("settings language", language="de")
    assert done.ephemeral and done.text.startswith("Public messages in this server are now in German")
    assert await harness.store.guild_language(fake.guild_id) == "de"
    # The open table speaks German from its next message on: its lobby is redrawn at once.
    await fake.wait_for(lambda: "Beitreten" in table_message(fake, "Insomnia").button_labels, what="German")
    assert "**Insomnia**-Tisch eröffnet" in table_message(fake, "Insomnia").text
    # Private answers stay in each reader's language.
    assert (await erin.slash("insomnia join")).text == "You joined the table."

    back = await erin.slash("settings language", language="default")
    assert back.text.startswith(
        "Public messages in this server now follow the server's language (today English)"
    )
    assert await harness.store.guild_language(fake.guild_id) is None
    await fake.wait_for(lambda: "Join" in table_message(fake, "Insomnia").button_labels, what="English again")
    assert lobby.id == table_message(fake, "Insomnia").id  # the same message, edited


async def test_the_server_choice_outlives_a_restart(harness: Harness) -> None:
    fake = harness.fake
    erin, bob = harness.user("erin"), harness.user("bob")
    await erin.slash("settings language", language="de")
    await harness.restart_bot()
    await bob.slash("insomnia new")  # an English client in an English-locale server that chose German
    await fake.wait_for_message(channel="games", contains="**Insomnia**-Tisch eröffnet")


async def test_a_german_player_is_refused_in_german_in_both_games(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Illegal moves of a German player, in Malice and in Insomnia: the engines' refusals come back in German
    (issue 20 found them English), a card in German notation; the same refusal reaches an English player in
    English."""
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    german(alice)
    me = str(alice.id)

    # Malice against the computer, in #games: her payoff card to a side stack, a card she does not hold.
    await alice.slash("malice challenge", opponent=fake.bot_user)
    game = await poll(
        lambda: (g := live_game(harness)) is not None and g.current_player == me and g, what="Alice's turn"
    )
    refused = await alice.slash("malice play", card="zahlstapel", to="seite1")
    assert refused.ephemeral and refused.text == "Deine Zahlstapelkarte darf nur in die Mitte."
    queen = next(c for c in standard_deck() if c.rank is Rank.QUEEN and c not in game.hands[me])
    refused = await alice.slash("malice play", card=format_card(queen, "de", pretty=False), to="seite1")
    assert refused.text == f"Du hast {format_card(queen, 'de')} nicht auf der Hand."
    assert live_game(harness).current_player == me, "a refused move changes nothing"

    # Insomnia with Bob (English), in #lounge: a bid during the exchange, an exchange of a card not held.
    await alice.slash("insomnia new", channel="lounge")
    await bob.slash("insomnia join", channel="lounge")
    await alice.slash("insomnia start", channel="lounge")
    game = await poll(lambda: live_game(harness, "lounge"), what="the Insomnia game")
    people = {me: alice, str(bob.id): bob}
    answers = {}
    while len(answers) < 2:  # each of them, at his exchange turn
        player = live_game(harness, "lounge").current_player
        user = people[player]
        answers[player] = (await user.slash("insomnia bid", amount="3", channel="lounge")).text
        if user is alice:
            hand = live_game(harness, "lounge").view(me).hand
            jack = next(c for c in deck_for(2) if c.rank is Rank.JACK and c not in hand)
            typed = format_card(jack, "de", pretty=False)
            refused = await alice.slash("insomnia exchange", card=typed, channel="lounge")
            assert refused.ephemeral and refused.text == (
                f"Du hast {format_card(jack, 'de')} nicht auf der Hand: tausche eine Karte von deiner Hand "
                "oder passe."
            )
        await user.slash("insomnia pass", channel="lounge")
    assert answers == {
        me: "Jetzt wird getauscht: tausche eine Karte von deiner Hand oder passe.",
        str(bob.id): "It is the exchange: exchange a card from your hand, or pass.",
    }
