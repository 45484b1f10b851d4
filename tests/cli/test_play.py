"""`cardtable-bot play`: the terminal game as a person plays it, typed input -> what the terminal shows.

Every run is `python -m bot play` as a process (tests/cli/terminal.py): piped input, a conversation move by
move, or a pseudo-terminal where readline edits the line. Seeds are fixed, so each game is the same each time.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import one_line
from tests.cli.terminal import Conversation, on_a_terminal, play, play_env

FIRST_MOVES = "1\n" * 20_000  # Malice: always the first move of the list; more than any game needs
# Insomnia asks amounts in its auctions, where a number alone is a bid: "pass" there; a refused line is
# followed by the other, so this input plays to the end too.
FIRST_MOVE_OR_PASS = "1\npass\n" * 10_000


# ---------------------------------------------------------------- whole games, piped


@pytest.mark.parametrize(
    ("game", "args", "moves", "ending"),
    [
        ("malice", [], FIRST_MOVES, r"🏁 Game over: .*Payoff cards left: Ann \d+, Computer 1 \d+\."),
        (
            "insomnia",
            ["--players", "3", "--deals", "2"],
            FIRST_MOVE_OR_PASS,
            r"🏁 Game over \((a player ran out|the last deal)",
        ),
    ],
)
def test_a_piped_game_plays_to_its_end(
    tmp_path: Path, game: str, args: list[str], moves: str, ending: str
) -> None:
    done = play(game, "--seed", "7", "--name", "Ann", *args, cwd=tmp_path, input=moves)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert re.search(ending, out), out[-2000:]
    assert "🔑 Seed: 7" in out  # the reveal: anyone can check the deal
    assert "Ann" in out and "<@" not in out and "**" not in out  # Discord markup is turned into words
    assert "table #" not in out  # one table: its number means nothing here
    assert not list(tmp_path.iterdir())  # no database, no token: nothing to set up
    # The same seed and the same input: the same game, line for line.
    again = play(game, "--seed", "7", "--name", "Ann", *args, cwd=tmp_path, input=moves)
    assert again.stdout == out


def test_play_again_repeats_the_options_and_names_the_seed(tmp_path: Path) -> None:
    done = play(
        "insomnia",
        "--players",
        "3",
        "--deals",
        "2",
        "--seed",
        "7",
        "--name",
        "Ann Lee",
        cwd=tmp_path,
        input=FIRST_MOVE_OR_PASS,
    )
    lines = done.stdout.rstrip().splitlines()
    again = "cardtable-bot play insomnia --players 3 --deals 2 --name 'Ann Lee'"
    assert lines[-2] == f"The game is over. Play again with: {again}"
    assert lines[-1] == f"Again with the same seed (the same deal): {again} --seed 7"


def test_the_end_of_the_input_and_quit_end_the_game_cleanly(tmp_path: Path) -> None:
    done = play("malice", "--seed", "5", cwd=tmp_path, input="")
    assert done.returncode == 0 and done.stderr == ""
    assert "Input ended: the game is left unfinished." in done.stdout
    done = play("malice", "--seed", "5", cwd=tmp_path, input="quit\nyes\n")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("You left the game.")


def test_a_closed_pipe_ends_the_game_quietly(tmp_path: Path) -> None:
    """`play ... | head`: the reader goes away early; no traceback, nothing on standard error."""
    command = f"yes 1 | {sys.executable} -m bot play malice --seed 7 | head -n 3"
    done = subprocess.run(
        ["sh", "-c", command], cwd=tmp_path, env=play_env(), capture_output=True, text=True, timeout=120
    )
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 3


def test_ctrl_c_leaves_the_game_without_a_traceback(tmp_path: Path) -> None:
    game = Conversation("malice", "--seed", "5", cwd=tmp_path)
    code, out, err = game.interrupt()
    assert code == 130
    assert "You left the game." in out
    assert err == ""


# ---------------------------------------------------------------- what each turn shows


def test_each_turn_shows_the_board_every_seat_and_the_hand(tmp_path: Path) -> None:
    malice = Conversation("malice", "--seed", "3", "--name", "Ann", cwd=tmp_path)
    turn = malice.opening.split("Turn 2 · Ann")[1]  # before anything is typed
    malice.close()
    # The opponent's piles, as the table message shows them in the channel, and the own hand.
    assert re.search(r"^Computer 1: payoff 26 \(top .+\), hand \d+$", turn, re.MULTILINE)
    assert re.search(r"^Computer 1: 1: K♣ \(1\)", turn, re.MULTILINE)  # his side stacks
    assert "Centre: 1: free" in turn
    assert "Your hand (Malice): 8♥ A♥ A♠ 9♣ Q♥" in turn
    insomnia = Conversation("insomnia", "--seed", "3", "--name", "Ann", cwd=tmp_path)
    insomnia.close()
    for seat in ("Ann", "Computer 1", "Computer 2"):
        assert re.search(rf"^\W*{seat}: 15 chips, 4 cards$", insomnia.opening, re.MULTILINE), seat
    assert "Pot: 0" in insomnia.opening and "Your hand (Insomnia, deal 1):" in insomnia.opening


def test_no_hidden_card_of_a_computer_is_ever_shown(tmp_path: Path) -> None:
    done = play("malice", "--seed", "5", cwd=tmp_path, input="hand\ntable\nquit\nyes\n")
    assert done.returncode == 0, done.stderr
    # The only hand shown is the player's own ("Your hand"); the computer's appears only as a count.
    assert done.stdout.count("Your hand (Malice)") == 2
    assert re.search(r"^Computer 1: payoff \d+ \(top .+\), hand \d+$", done.stdout, re.MULTILINE)


def test_rules_shows_the_games_rules_in_the_terminals_language(tmp_path: Path) -> None:
    done = play("insomnia", "--seed", "3", cwd=tmp_path, input="rules\nquit\nyes\n")
    assert "Insomnia: dice, chips and tricks" in done.stdout
    assert "Stage 3: tricks for the pot" in done.stdout
    assert "Rule 23 (house decision)" in done.stdout  # the house decisions, flagged
    german = play("malice", "--seed", "3", cwd=tmp_path, input="regeln\nverlassen\nja\n", LANG="de_DE.UTF-8")
    assert "Malice" in german.stdout and "Hausregel" in german.stdout
    assert "Du hast das Spiel verlassen." in german.stdout


# ---------------------------------------------------------------- numbers: amounts or the list's numbers


def _at_the_auction(tmp_path: Path, *args: str) -> Conversation:
    game = Conversation("insomnia", "--players", "2", "--seed", "4", "--name", "Ann", *args, cwd=tmp_path)
    shown = game.say("pass")  # keep the hand; the computer exchanges, then the auction asks Ann first
    assert "It is your turn: bid at least 1 or pass." in shown, shown
    return game


def test_a_number_is_an_amount_where_an_amount_is_asked(tmp_path: Path) -> None:
    game = _at_the_auction(tmp_path)
    try:
        assert "Ann bids 8." in game.say("8")  # not the 8th line of a list
    finally:
        game.close()
    game = _at_the_auction(tmp_path)
    try:
        assert "Ann bids 3." in game.say("bid 3")
    finally:
        game.close()


def test_the_bid_list_folds_its_range_and_numbers_nothing(tmp_path: Path) -> None:
    game = _at_the_auction(tmp_path, "--chips", "1000")
    try:
        shown = game.say("help")
    finally:
        game.close()
    listed = shown.split("Your moves", 1)[1].splitlines()
    assert listed[0] == " (type one; a number alone is the amount):"
    assert re.match(r"^ +bid 1 to 1000 +any amount from 1 to 1000$", listed[1])
    # `pass` says what it does in an auction (not "pass  pass"): passing is not final there (rule 10).
    assert re.match(r"^ +pass +bid nothing this time \(you may bid again on a later turn\)$", listed[2])
    assert listed[3] == "Also: hand, table, rules, and quit."


def test_where_a_choice_is_asked_a_number_picks_the_list_line(tmp_path: Path) -> None:
    game = Conversation("insomnia", "--players", "2", "--seed", "4", "--name", "Ann", cwd=tmp_path)
    try:
        shown = game.say("help")
        lines = re.findall(r"^ +(\d+)\. (\S+ \S+|\S+) +(.+)$", shown, re.MULTILINE)
        assert [n for n, _, _ in lines] == ["1", "2", "3", "4", "5"]
        assert lines[-1][1:] == ("pass", "keep your hand")
        assert "Ann exchanges a card (1 so far)." in game.say("1")
        assert "There is no move 9: the list (help) goes from 1 to 5." in game.say("9")
    finally:
        game.close()


def test_a_number_rethrows_that_die(tmp_path: Path) -> None:
    game = _at_the_auction(tmp_path)
    try:
        shown = game.say("1")  # bid 1; the computer passes: Ann re-throws
        assert "It is your turn: re-throw a die" in shown, shown
        assert "🎲 Ann re-throws die 2: " in game.say("2")
    finally:
        game.close()


# ---------------------------------------------------------------- refusals: the engine's reason


def test_refusals_give_the_engines_reason(tmp_path: Path) -> None:
    game = Conversation("insomnia", "--players", "2", "--seed", "4", "--name", "Ann", cwd=tmp_path)
    try:
        assert "It is the exchange: exchange a card from your hand, or pass." in game.say("bid 8")
        shown = game.say("bogus")  # a word no move begins with: what may be typed now
        assert "'bogus' is not a move here. You may type now: exchange <card> (like exchange" in shown
        assert "'zz' is not a card" in game.say("exchange zz")
        assert "You do not hold" in game.say("exchange 2h")
        game.say("pass")
        assert "You have only 15 chips: bid at most 15, or pass." in game.say("bid 99")
        assert "'lots' is not a bid: give a whole number." in game.say("bid lots")
    finally:
        game.close()
    malice = Conversation("malice", "--seed", "3", cwd=tmp_path)
    try:
        assert "You must first play your ace to the centre." in malice.say("end")
        assert "Type it with what it needs: play <card> <to>." in malice.say("play")
    finally:
        malice.close()


def test_a_card_that_does_not_follow_suit_is_refused_with_the_reason(tmp_path: Path) -> None:
    """Played on until Ann holds the suit led and another one, then the other one is typed."""
    game = Conversation("insomnia", "--players", "2", "--seed", "1", "--name", "Ann", cwd=tmp_path)
    try:
        shown = game.opening
        for _ in range(200):
            if "It is your turn: play a card" in shown and "This trick: " in shown:
                hand = re.findall(r"Your hand \(Insomnia[^)]*\): (.*)", shown)[-1].split()
                led = re.findall(r"This trick: (\S+)", shown)[-1][-1]
                off = [card for card in hand if card[-1] != led]
                if off and len(off) < len(hand):
                    assert re.search(r"You must follow suit: you hold a \w+\.", game.say(f"play {off[0]}"))
                    return
            shown = game.say("pass" if "bid at least" in shown else "1")
        pytest.fail("no trick where Ann could fail to follow suit")
    finally:
        game.close()


def test_a_long_line_is_cut_to_an_excerpt(tmp_path: Path) -> None:
    long = "x" * 5000
    done = play("insomnia", "--seed", "3", cwd=tmp_path, input=long + "\nquit\nyes\n")
    assert long[:100] not in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) < 300
    assert re.search(r"^'x{39}…' is not a move here", done.stdout, re.MULTILINE)  # the refusal quotes 40
    assert done.stdout.rstrip().endswith("You left the game.")  # the rest of the long line was no move


# ---------------------------------------------------------------- every spelling Discord accepts


def test_every_card_spelling_and_centre_are_read(tmp_path: Path) -> None:
    game = Conversation("malice", "--seed", "3", "--name", "Ann", cwd=tmp_path)
    try:
        # Ann holds 8♥ A♥ A♠ 9♣ Q♥: suit symbols, `centre` for whichever centre stack takes it.
        assert "Ann plays A♥ from the hand to centre 1." in game.say("play A♥ centre")
        assert "Ann plays A♠ from the hand to centre 3." in game.say("ace of spades centre3")  # options alone
        # Spellings of cards she does not hold are read as cards: the engine says she does not hold them.
        assert "You do not hold 10♦." in game.say("play 10♦ side1")
        assert "You do not hold J♣." in game.say("play J♣ side1")
        assert "Ann plays 9♣ from the hand to side stack 2." in game.say("play 9c side2")
    finally:
        game.close()


def test_a_german_terminal_reads_german_cards_places_and_commands(tmp_path: Path) -> None:
    game = Conversation(
        "malice",
        "--seed",
        "3",
        "--name",
        "Ann",
        cwd=tmp_path,
        prompt="dein Zug (hilfe, verlassen)> ",
        LANG="de_DE.UTF-8",
    )
    try:
        assert "Malice im Terminal: du bist Ann" in game.opening
        assert "Deine Hand (Malice): 8♥ A♥ A♠ 9♣ D♥" in game.opening
        listed = game.say("hilfe")
        assert "1. legen ah mitte1" in listed and "A♥ (Hand) auf Mittelstapel 1" in listed
        assert "Du musst zuerst dein Ass in die Mitte legen." in game.say("beenden")
        assert "Ann legt A♥ aus der Hand auf Mittelstapel 1." in game.say("legen Herz Ass mitte")
        assert "Ann legt A♠ aus der Hand auf Mittelstapel 2." in game.say("play AP centre2")  # English too
        assert "„xx“ ist keine Karte" in game.say("legen xx seite1")
    finally:
        game.close()


def test_the_language_flag_wins_over_the_terminals(tmp_path: Path) -> None:
    done = play(
        "malice", "--seed", "3", "--language", "en", cwd=tmp_path, input="quit\nyes\n", LANG="de_DE.UTF-8"
    )
    assert "Malice in the terminal" in done.stdout and "You left the game." in done.stdout
    done = play("malice", "--seed", "3", "--language", "de", cwd=tmp_path, input="verlassen\nja\n")
    assert "Du hast das Spiel verlassen." in done.stdout


# ---------------------------------------------------------------- the command line and the terminal


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "Ann\x07", "Ann\nLee"])
def test_a_bad_name_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    done = play("malice", "--name", name, cwd=tmp_path)
    assert done.returncode == 2
    assert "--name must be 1 to 32 printable characters" in one_line(done.stderr)
    assert done.stdout == ""


def test_a_name_of_32_characters_is_taken(tmp_path: Path) -> None:
    name = "Ä" * 32
    done = play("malice", "--seed", "3", "--name", name, cwd=tmp_path, input="quit\nyes\n")
    assert done.returncode == 0, done.stderr
    assert f"you are {name}, seat 1" in done.stdout


def test_a_real_terminal_has_line_editing_history_and_completion(tmp_path: Path) -> None:
    shown = on_a_terminal(
        "malice",
        "--seed",
        "3",
        cwd=tmp_path,
        keys=[
            b"hand\r",  # once
            b"\x1b[A\r",  # the up arrow brings back "hand"
            b"tble\x01\x06a\r",  # a letter forgotten, put in with the cursor keys (Ctrl+A, Ctrl+F): table
            b"qu\t\r",  # tab completes "quit"
            b"ye\t\r",  # and "yes" confirms
        ],
    )
    assert shown.count("Your hand (Malice)") == 3, shown  # the turn, then twice asked
    assert "➡️ Player, your turn" in shown  # "table" was read
    assert "You left the game." in shown
    assert "Traceback" not in shown
