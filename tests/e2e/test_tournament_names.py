"""Every name as its owner typed it, after a restart (issue 39), through the real bot and the fake Discord: a
German 6-person knockout of people named as a real international server names them (two of Discord's longest
names alike up to their last word, accents, the capital sharp s, Greek, Cyrillic) whose bot is killed between
rounds. Most of them never click again after the restart (the losers of round one, the winners who wait),
yet the final bracket posted names every one of them: it is the very picture drawn from the names stored with
their entries, and that drawing's own record shows each name whole or cut so it names him alone, the two
Maximilians apart, the Cyrillic name drawn, the champion named, and no "Spieler N"."""

from __future__ import annotations

import pytest

from bot.events import plan
from bot.render import tournament as words
from bot.render.pictures.text import recording
from tests.e2e.fake_discord import THREAD_PERMISSIONS
from tests.e2e.harness import Harness
from tests.e2e.test_tournaments import resign, round_opened, row_of, runner
from tests.render.names import WEINSTEIGER, WOLKENSTEIN
from tests.render.test_picture_names import reads_as

pytestmark = pytest.mark.bot(rate_limits=True)
PEOPLE = {
    "max1": WOLKENSTEIN,
    "max2": WEINSTEIGER,
    "jose": "José Ñúñez-Çağlar Ørsted",
    "tram": "ẞtraßenbahn",
    "omega": "Ωmega Σοφία",
    "dima": "Дмитрий Шостакович",
}


async def play_round(harness: Harness, users: dict, event: int, round_no: int) -> None:
    """Every game of the round: its second seat resigns."""
    row = await round_opened(harness, event, round_no)
    for m in row.current():
        if len(m.players) == 2 and not m.settled:
            await resign(harness, users, m, m.players[1])


@pytest.mark.both_backends
async def test_a_german_knockout_names_all_on_its_final_bracket_after_a_restart(harness: Harness) -> None:
    fake = harness.fake
    fake.guild_locale = "de"
    fake.bot_permissions |= THREAD_PERMISSIONS
    for handle, display in PEOPLE.items():
        fake.add_member(handle, display=display)
    host = harness.user("max1")
    await harness.user("erin").slash("settings threads", threads="thread-per-game")  # erin manages the server
    made = await host.slash("tournament create", game="malice", format="knockout", deadline=30)
    event = int(made.text.split("#", 1)[1].split(" ", 1)[0])
    users = {}
    for handle in PEOPLE:
        user = harness.user(handle)
        await user.slash("tournament join")
        users[str(user.user.id)] = user
    ids = {str(harness.user(h).user.id): d for h, d in PEOPLE.items()}
    await host.slash("tournament start")
    await play_round(harness, users, event, 1)

    await round_opened(harness, event, 2)
    await runner(harness).idle()
    await harness.crash_bot()  # the process forgets every name it saw
    await harness.start_bot()
    await play_round(harness, users, event, 2)  # only the losers click: they resign
    await play_round(harness, users, event, 3)
    await fake.wait_for(lambda: len(announcements_de(harness, event)) >= 4, what="the final", timeout=60)

    row = await row_of(harness, event)
    assert row.status == "finished"
    assert {e.player: e.display_name for e in row.entrants} == ids  # the names stored with the entries
    final = announcements_de(harness, event)[-1]
    (posted,) = fake.attachment_bytes(final)
    board = plan.board(row, {e.player: e.display_name for e in row.entrants if e.display_name})
    with recording() as marks:
        drawn = words.final_message(board, "de").picture
    assert drawn is not None and drawn.data == posted  # the picture posted is this drawing, byte for byte

    texts = [m.text for m in marks if m.kind == "text"]
    for player, name in ids.items():
        alone = [t for t in texts if [p for p, n in ids.items() if reads_as(t, n)] == [player]]
        assert alone, (name, texts)  # drawn whole, or cut so that it reads as him alone
    assert not any(t.startswith(("Spieler ", "Nr. ")) for t in texts), texts
    assert any("Дмитрий" in t for t in texts) and any("ẞtraßenbahn" in t for t in texts)
    winner = board.lines[0].player if board.lines else None
    champion = [t for t in texts if t.startswith("Sieger: ")]
    assert len(champion) == 1 and winner is not None and reads_as(champion[0][len("Sieger: ") :], ids[winner])
    assert f"<@{winner}>" in final.text


def announcements_de(harness: Harness, event: int) -> list:
    """The event's posts, in German ("Turnier #N: ...")."""
    return [m for m in harness.fake.channel_messages("games") if f"Turnier #{event}:" in m.text]
