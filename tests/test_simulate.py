"""Smoke test of the headless simulator through its real entry point, `python -m bot simulate`."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

from bot.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "simulate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _figure(out: str, label: str) -> str:
    match = re.search(rf"^{re.escape(label)}: (.*)$", out, re.MULTILINE)
    assert match, f"no '{label}' line in:\n{out}"
    return match.group(1)


def _counts(text: str) -> dict[str, int]:
    return {name.strip(): int(n) for name, n in re.findall(r"([a-z_0-9 ]+?) (\d+) \(", text)}


def test_insomnia_simulation_prints_its_figures():
    done = _run("--game", "insomnia", "--players", "3", "--games", "5", "--seed", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("insomnia: 5 games, 3 players, seed 1")
    assert float(_figure(out, "games per second")) > 0
    lengths = _figure(out, "deals per game")
    mean, _sd, low, high = (float(x) for x in re.findall(r"[\d.]+", lengths))
    assert 1 <= low <= mean <= high
    wins = _counts(_figure(out, "wins by seat"))
    assert list(wins) == ["seat 1", "seat 2", "seat 3"] and sum(wins.values()) >= 5
    deals = int(_figure(out, "deals"))
    assert deals >= 5
    stage1 = _counts(_figure(out, "stage 1 dice payouts"))
    assert 0 < sum(stage1.values()) <= deals  # a game can end before its last deal's dice are paid
    assert sum(_counts(_figure(out, "stage 2 best hand")).values()) <= deals
    assert float(_figure(out, "chips moved per deal")) > 0
    assert "  stage1_payout: " in out or "  stage2_payout: " in out
    assert "insomnia x3" in done.stderr  # the progress bar goes to stderr, never into the figures


def test_malice_simulation_prints_its_figures():
    done = _run("--game", "malice", "--games", "5", "--seed", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("malice: 5 games, 2 players, seed 2")
    wins = _counts(_figure(out, "wins by seat"))
    assert sum(wins.values()) + int(_figure(out, "draws")) == 5
    assert sum(_counts(_figure(out, "game ends")).values()) == 5
    assert float(_figure(out, "turns per game").split(",")[0].removeprefix("mean ")) >= 2


def test_every_table_option_and_house_rule_is_an_option_of_the_simulation():
    done = _run(
        "--game",
        "malice",
        "--games",
        "4",
        "--seed",
        "3",
        "--option",
        "discard=required",
        "--option",
        "turns=30",
        "--stake",
        "2",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert _figure(out, "options") == "stake=2, discard=required, turns=30"
    ends = _counts(_figure(out, "game ends"))
    assert sum(ends.values()) == 4 and set(ends) <= {"payoff_emptied", "stalemate", "turn_cap"}
    assert float(_figure(out, "turns per game").split(",")[0].removeprefix("mean ")) <= 30
    standard = _run("--game", "insomnia", "--players", "3", "--games", "2", "--seed", "3")
    assert _figure(standard.stdout, "options") == "none (the standard rules)"


def test_house_rules_change_what_the_simulated_games_do():
    house = {"stage4": "off", "bust": "out", "chips": 4}
    out = simulate("insomnia", 5, 6, "h", options=house, progress=False)
    assert "stage4_bid" not in out.chips_by_reason and "stage4_payout" not in out.chips_by_reason
    assert out.end_reasons == {"out_of_chips": 6} and out.options["bust"] == "out"


def test_wrong_player_count_is_refused_with_a_message():
    done = _run("--game", "malice", "--players", "3", "--games", "1")
    assert done.returncode == 2
    assert "exactly 2 players" in done.stderr


def test_the_same_seed_gives_the_same_figures():
    first = simulate("insomnia", 4, 3, "same", progress=False)
    second = simulate("insomnia", 4, 3, "same", progress=False)
    assert first.model_dump(exclude={"seconds"}) == second.model_dump(exclude={"seconds"})
    assert sum(first.chips_by_reason.values()) > 0


def test_ctrl_c_in_a_long_run_prints_the_figures_of_the_games_played_so_far_and_exits_130():
    """A run of a million games, stopped with Ctrl+C (SIGINT) once the progress bar shows games played: the
    figures of those games on stdout, saying it was stopped, and exit 130 (no traceback)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "simulate", "--game", "malice", "--games", "1000000", "--seed", "7"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = ""
    try:
        while not re.search(r"\| *[1-9]\d*/1000000", seen):  # tqdm: "| 12/1000000"
            chunk = process.stderr.read(64)
            assert chunk, f"the run ended before it played a game: {seen}"
            seen += chunk
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in seen + err
    played = int(re.search(r"^malice: (\d+) games, 2 players, seed 7$", out, re.M).group(1))  # type: ignore[union-attr]
    assert 1 <= played < 1000000
    assert f"stopped (Ctrl+C) after {played} of 1000000 games: the figures are those games'" in out
    wins = _counts(_figure(out, "wins by seat"))
    assert sum(wins.values()) + int(_figure(out, "draws")) >= played  # the figures count exactly those games


def test_play_and_simulate_take_the_same_seats_when_players_is_left_out():
    """`play insomnia` seats you and two computer players; `simulate --game insomnia` plays as many seats."""
    simulated = _run("--game", "insomnia", "--games", "1", "--seed", "1")
    assert simulated.returncode == 0, simulated.stderr
    assert simulated.stdout.startswith("insomnia: 1 games, 3 players, seed 1")
    played = subprocess.run(
        [sys.executable, "-m", "bot", "play", "insomnia", "--seed", "1"],
        input="quit\nyes\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "Computer 2" in played.stdout and "Computer 3" not in played.stdout
    for command in (["play", "insomnia"], ["simulate", "--game", "insomnia"]):
        helped = subprocess.run(
            [sys.executable, "-m", "bot", *command, "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert "Insomnia: 2-8 (default 3)" in " ".join(helped.stdout.split()), command
