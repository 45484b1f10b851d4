"""`cardtable-bot play`: a whole game in the terminal from piped input, against the real computer players."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.helpers import cli

ALWAYS_THE_FIRST_MOVE = "1\n" * 20_000  # more than any game needs; the rest is never read


@pytest.mark.parametrize(
    ("game", "args", "ending"),
    [
        ("malice", [], r"🏁 Game over: .*Payoff cards left: Ann \d+, Computer 1 \d+\."),
        ("insomnia", ["--players", "3", "--deals", "2"], r"🏁 Game over \((a player ran out|the last deal)"),
    ],
)
def test_a_piped_game_plays_legal_moves_to_the_end(tmp_path: Path, game: str, args: list[str],
                                                    ending: str) -> None:
    done = cli("play", game, "--seed", "7", "--name", "Ann", *args, cwd=tmp_path, timeout=120,
               input=ALWAYS_THE_FIRST_MOVE)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert done.stderr == ""
    assert "not a legal move" not in out
    assert re.search(ending, out), out[-2000:]
    assert "🔑 Seed: 7" in out  # the reveal: anyone can check the deal
    assert out.rstrip().endswith(f"Play again with: cardtable-bot play {game}")
    assert "Ann" in out and "<@" not in out and "**" not in out  # Discord markup is turned into words
    assert not list(tmp_path.iterdir())  # no database, no token: nothing to set up


def test_the_same_seed_and_moves_replay_the_same_game(tmp_path: Path) -> None:
    first = cli("play", "malice", "--seed", "x", cwd=tmp_path, input=ALWAYS_THE_FIRST_MOVE)
    second = cli("play", "malice", "--seed", "x", cwd=tmp_path, input=ALWAYS_THE_FIRST_MOVE)
    assert first.stdout == second.stdout


def test_help_lists_the_legal_moves_and_a_typed_move_is_played(tmp_path: Path) -> None:
    done = cli("play", "insomnia", "--players", "2", "--seed", "3", cwd=tmp_path,
               input="help\nhand\nbogus\npass\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    moves = re.findall(r"^\s+(\d+)\. (\S+(?: \S+)?)\s", out, re.MULTILINE)
    assert moves and moves[0][0] == "1"
    typed = [m for _n, m in moves]
    assert "pass" in typed  # the exchange can always be declined
    assert all(m == "pass" or m.startswith(("exchange ", "bid ", "rethrow ", "play ")) for m in typed)
    assert "'bogus' is not a legal move now: type help for the list." in out
    assert out.count("Your hand (Insomnia") >= 2  # at the turn and when asked
    assert "You left the game." in out


def test_no_hidden_card_of_a_computer_is_ever_shown(tmp_path: Path) -> None:
    done = cli("play", "malice", "--seed", "5", cwd=tmp_path, input="hand\ntable\nquit\n")
    assert done.returncode == 0, done.stderr
    # The only hand shown is the player's own ("Your hand"); the computer's appears only as a count.
    assert done.stdout.count("Your hand (Malice)") == 2
    assert re.search(r"^Computer 1: payoff \d+ \(top .+\), hand \d+$", done.stdout, re.MULTILINE)


def test_the_end_of_the_input_ends_the_game_cleanly(tmp_path: Path) -> None:
    done = cli("play", "malice", "--seed", "5", cwd=tmp_path, input="")
    assert done.returncode == 0, done.stderr
    assert "Input ended: the game is left unfinished." in done.stdout
