"""The real bot against the fake Discord: start, /rules, /help, /leaderboard, /stats, and a rejected token."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from discord.http import Route

from bot.__main__ import EXIT_NETWORK, EXIT_REJECTED, run
from bot.config import Settings
from bot.i18n import t
from storage import LedgerIn, ResultIn, SeatIn, Store
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, FakeDiscordError
from tests.e2e.harness import Harness
from tests.storage.conftest import Doc

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()


def house_rules(game: str) -> list[int]:
    """The numbers of the rules marked [D] in docs/rules.md for one game."""
    insomnia, malice = RULES.split("## 2. Malice")[0], RULES.split("## 2. Malice")[1].split("## 3.")[0]
    section = {"insomnia": insomnia, "malice": malice}[game]
    numbers = []
    for item in re.split(r"\n(?=\d+\. )", section):
        match = re.match(r"(\d+)\. ", item)
        if match and "[D]" in re.split(r"\n(?=#|\*\*)", item)[0]:
            numbers.append(int(match.group(1)))
    return numbers


def test_house_rules_are_found() -> None:
    assert house_rules("insomnia") == [2, 19, 20, 23, 25, 31, 32]
    assert house_rules("malice") == [3, 9, 11, 13, 16, 17]


async def test_bot_starts_syncs_and_identifies_without_privileged_intents(harness: Harness) -> None:
    fake = harness.fake
    assert harness.bot is not None and harness.bot.is_ready()
    assert fake.identifies and fake.identifies[-1]["intents"] & ((1 << 1) | (1 << 8) | (1 << 15)) == 0
    synced = {c["name"] for c in fake.global_commands}  # global sync without DEV_GUILD_ID
    assert {"rules", "help", "leaderboard", "stats"} <= synced
    assert not fake.guild_commands


@pytest.mark.parametrize("game", ["insomnia", "malice"])
async def test_rules_summarise_the_game_and_flag_every_house_decision(harness: Harness, game: str) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await alice.slash("rules", game=game)
    assert reply.kind == "message" and reply.ephemeral
    assert all(m not in bob.seen() for m in reply.messages)
    embeds = reply.embeds
    assert embeds[0]["title"].startswith(game.capitalize())
    house = next(e for e in embeds if e["title"] == "House decisions")
    flagged: set[int] = set()
    for first, last in re.findall(
        r"\*\*Rules? (\d+)(?:-(\d+))?\*\* \(house decision\)", house["description"]
    ):
        flagged |= set(range(int(first), int(last or first) + 1))
    assert set(house_rules(game)) <= flagged, "a [D] rule of docs/rules.md is missing from /rules"
    for message in reply.messages:
        sizes = [
            len(e.get("title", ""))
            + len(e.get("description", ""))
            + len(e.get("footer", {}).get("text", ""))
            + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields", []))
            for e in message.embeds
        ]
        assert all(len(e.get("description", "")) <= 4096 for e in message.embeds) and sum(sizes) <= 6000


async def test_rules_only_offers_the_two_games(harness: Harness) -> None:
    with pytest.raises(FakeDiscordError, match="not one of the choices"):
        await harness.user("alice").slash("rules", game="chess")


def _leaves(options: list[dict], prefix: str) -> list[tuple[str, list[dict]]]:
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        return [(prefix, options)]
    return [leaf for o in subs for leaf in _leaves(o.get("options", []), f"{prefix} {o['name']}")]


async def test_help_lists_every_synced_command_one_line_each(harness: Harness) -> None:
    reply = await harness.user("carol").slash("help")
    assert reply.ephemeral
    lines = "\n".join(e["description"] for e in reply.embeds).splitlines()
    # The last line says where the games are played (Malice in DMs too, Insomnia in servers only), after an
    # empty line or, when the commands fill the last embed, in an embed of its own.
    assert lines[-1] == t("en", "help.places")
    lines = [line for line in lines[:-1] if line]
    slash = [c for c in harness.fake.global_commands if c.get("type", 1) == 1]  # not the user menu
    synced = [leaf for c in slash for leaf in _leaves(c.get("options", []), c["name"])]
    assert len(lines) == len(synced)
    for name, options in synced:
        usage = " ".join(
            [f"/{name}", *[o["name"] if o.get("required") else f"[{o['name']}]" for o in options]]
        )
        assert sum(line.startswith(f"`{usage}`: ") for line in lines) == 1, usage
    expected_lines = (
        "`/rules [game]`: ",
        "`/help`: ",
        "`/leaderboard [game] [season] [by]`: ",
        "`/stats [user]`: ",
    )
    for expected in expected_lines:
        assert any(line.startswith(expected) for line in lines), expected


@pytest.mark.bot(dev_guild_id=GUILD_ID)
async def test_dev_guild_gets_the_commands_instantly(harness: Harness) -> None:
    fake = harness.fake
    assert fake.global_commands == []
    assert {"rules", "help"} <= {c["name"] for c in fake.guild_commands[GUILD_ID]}
    reply = await harness.user("alice").slash("help")
    assert "`/stats [user]`: " in reply.text


# ---- leaderboard and stats, from a database seeded through the store


async def finished_table(
    store: Store, kind: str, channel: int, moves: list[tuple[str, str, int, str]], results: dict[str, int]
) -> None:
    """A finished table whose ledger holds `moves` and whose results give each player's net (winner: max)."""
    players = list(results)
    table = await store.create_table(GUILD_ID, channel, kind, int(players[0]), Doc(), "seed", "commitment")
    await store.set_seats(
        table,
        [
            SeatIn(seat=i, player=p, user_id=None if p.startswith("ai:") else int(p))
            for i, p in enumerate(players)
        ],
    )
    await store.start_table(table, "{}")
    for seq, (src, dst, amount, reason) in enumerate(moves[:-1]):
        await store.append_action(
            table,
            seq,
            src,
            "{}",
            [LedgerIn(from_account=src, to_account=dst, amount=amount, reason=reason)],
            "{}",
        )
    best = max(results.values())
    ranked = sorted(players, key=lambda p: -results[p])
    src, dst, amount, reason = moves[-1]
    await store.append_action(
        table,
        len(moves) - 1,
        src,
        "{}",
        [LedgerIn(from_account=src, to_account=dst, amount=amount, reason=reason)],
        "{}",
        finish=[
            ResultIn(player=p, net=results[p], placement=ranked.index(p) + 1, won=results[p] == best)
            for p in players
        ],
    )


async def seed_games(harness: Harness) -> dict[str, str]:
    fake = harness.fake
    ids = {name: str(fake.members[name].id) for name in ("alice", "bob", "carol", "dave")}
    a, b, c, d = ids["alice"], ids["bob"], ids["carol"], ids["dave"]
    games = fake.channel("games").id
    # Insomnia: alice wins 16 (8 + 8 dice payout, 2 from the computer seat, a bid into the pot won back).
    await finished_table(
        harness.store,
        "insomnia",
        games,
        [
            (b, a, 8, "stage1_payout"),
            (c, a, 8, "stage1_payout"),
            ("ai:1", a, 2, "stage2_payout"),
            (a, "@pot", 2, "bid"),
            ("@pot", b, 2, "pot_split"),
        ],
        {a: 16, b: -6, c: -8, "ai:1": -2},
    )
    await finished_table(harness.store, "malice", games, [(d, a, 5, "malice_score")], {a: 5, d: -5})
    await finished_table(harness.store, "malice", games, [(b, d, 3, "malice_score")], {d: 3, b: -3})
    return ids


async def test_leaderboard_shows_the_ledger_publicly_without_pinging(harness: Harness) -> None:
    ids = await seed_games(harness)
    a, b, c, d = ids["alice"], ids["bob"], ids["carol"], ids["dave"]
    carol, erin = harness.user("carol"), harness.user("erin")
    reply = await carol.slash("leaderboard", season="all-time")
    assert reply.kind == "message" and not reply.ephemeral and reply.message is not None
    assert reply.message in erin.seen() and reply.message.pinged == frozenset()
    embed = reply.embeds[0]
    assert embed["title"] == "Leaderboard: all games"
    assert embed["description"].splitlines() == [
        f"**1.** <@{a}>: **+21** chips · 2 games · 2 wins",
        f"**2.** <@{d}>: **-2** chips · 2 games · 1 win",
        f"**3.** <@{c}>: **-8** chips · 1 game · 0 wins",
        f"**4.** <@{b}>: **-9** chips · 2 games · 0 wins",
    ]
    assert "ai:" not in reply.text
    assert [bt.disabled for bt in reply.message.buttons] == [True, True]  # one page only
    # This month's season (the default) holds the same finished games; its title says which.
    season = await carol.slash("leaderboard")
    assert season.embeds[0]["title"] == f"Leaderboard: all games · season {harness.store.current_season()}"
    assert season.embeds[0]["description"] == embed["description"]
    malice = await carol.slash("leaderboard", game="malice", season="all-time")
    assert malice.embeds[0]["title"] == "Leaderboard: Malice"
    assert malice.embeds[0]["description"].splitlines() == [
        f"**1.** <@{a}>: **+5** chips · 1 game · 1 win",
        f"**2.** <@{d}>: **-2** chips · 2 games · 1 win",
        f"**3.** <@{b}>: **-3** chips · 1 game · 0 wins",
    ]


async def test_empty_leaderboard_says_how_to_start(harness: Harness) -> None:
    reply = await harness.user("alice").slash("leaderboard", game="insomnia")
    assert "No finished games in this server yet" in reply.text


async def test_leaderboard_pages_with_buttons_that_survive_a_restart(harness: Harness) -> None:
    players = [str(500 + i) for i in range(12)]
    games = harness.fake.channel("games").id
    for i in range(6):  # six duels: the winner of duel i wins 12 - i chips
        winner, loser = players[i], players[11 - i]
        await finished_table(
            harness.store,
            "malice",
            games,
            [(loser, winner, 12 - i, "malice_score")],
            {winner: 12 - i, loser: i - 12},
        )
    bob = harness.user("bob")
    reply = await bob.slash("leaderboard")
    assert reply.message is not None
    first_page = reply.message.embeds[0]["description"].splitlines()
    assert len(first_page) == 10 and first_page[0] == "**1.** <@500>: **+12** chips · 1 game · 1 win"
    assert [(bt.label, bt.disabled) for bt in reply.message.buttons] == [
        ("◀ Previous", True),
        ("Next ▶", False),
    ]
    await harness.restart_bot()
    page2 = await harness.user("dave").click(reply.message, "Next ▶")
    assert page2.kind == "update" and page2.message is reply.message
    assert reply.message.embeds[0]["description"].splitlines() == [
        "**11.** <@510>: **-11** chips · 1 game · 0 wins",
        "**12.** <@511>: **-12** chips · 1 game · 0 wins",
    ]
    assert [(bt.label, bt.disabled) for bt in reply.message.buttons] == [
        ("◀ Previous", False),
        ("Next ▶", True),
    ]
    await bob.click(reply.message, "◀ Previous")
    assert reply.message.embeds[0]["description"].splitlines() == first_page
    assert len(reply.message.history) == 3


async def test_stats_are_private_and_exact(harness: Harness) -> None:
    ids = await seed_games(harness)
    alice, bob, frank = harness.user("alice"), harness.user("bob"), harness.user("frank")
    mine = await alice.slash("stats")
    assert mine.ephemeral and mine.message not in bob.seen()
    embed = mine.embeds[0]
    assert embed["description"] == f"<@{ids['alice']}> in this server"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields == {
        "All games": "Games: **2** · Wins: **2**\nNet chips: **+21** · Biggest win: **+16**",
        "Insomnia": "Games: **1** · Wins: **1**\nNet chips: **+16** · Biggest win: **+16**",
        "Malice": "Games: **1** · Wins: **1**\nNet chips: **+5** · Biggest win: **+5**",
    }
    theirs = await frank.slash("stats", user=bob)
    assert theirs.ephemeral and theirs.message in frank.ephemerals()
    fields = {f["name"]: f["value"] for f in theirs.embeds[0]["fields"]}
    assert fields["All games"] == "Games: **2** · Wins: **0**\nNet chips: **-9** · Biggest win: **none yet**"
    assert theirs.message is not None and theirs.message.pinged == frozenset()
    nothing = await frank.slash("stats")
    assert nothing.text == "You have not finished a game in this server yet."


# ---- a rejected token


async def test_rejected_token_exits_with_one_sentence(
    fake_server: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(_env_file=None, discord_token="not-the-token", database_path=tmp_path / "db.sqlite3")
    assert await run(settings) == EXIT_REJECTED
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "cardtable-bot: Discord rejected DISCORD_TOKEN (401 Unauthorized): copy a fresh token from the Bot "
        "page of your application in the Discord developer portal."
    ]
    assert "not-the-token" not in err and "Traceback" not in err
    assert [c.status for c in fake_server.calls("GET /users/@me")] == [401]
    assert (tmp_path / "db.sqlite3").exists()  # opened and migrated before Discord was asked


async def test_unreachable_discord_exits_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    settings = Settings(_env_file=None, discord_token="a-token", database_path=tmp_path / "db.sqlite3")
    assert await run(settings) == EXIT_NETWORK
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable-bot: cannot reach Discord (")
