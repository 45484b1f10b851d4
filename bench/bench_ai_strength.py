"""Computer-player strength: run `python bench/bench_ai_strength.py` from the repository root.

Against opponents that pick a uniformly random legal action (`bot.games.ai.random_action`), over seeded
games (1,000 each by default; `--games N`):

- Malice: the computer player's win rate (seats alternate), with a 95% Wilson interval, at the standard rules
  and at house rule H4 `discard=required`. Aim: at least 90%.
- Malice as a race: how computer-against-computer games end at both rule sets (`--race-games`, 300, seeded
  from `--race-seed`, 11: the same games as `python -m bot simulate --game malice --games 300 --seed 11
  [--option discard=required]`). Aim, house rule: at least half end with a payoff pile emptied.
- Insomnia: the computer player's net chips per game with one computer seat among random players (the seat
  rotates), for each player count asked (`--players 2 4 8`; all of 2-8 by default): mean, standard deviation
  and the 95% confidence interval of the mean, then the same pooled over every game played. Aim: the whole
  interval above 0. At 6-8 players nearly every game ends in the first auction with nothing won or lost (a
  random bidder stakes his whole stack, rule 31), so the mean is small next to its spread and those counts
  play more games by default (`EXTRA_GAMES`, fixed in advance, not extended until the figure looks good).
- Decision time: computer-against-computer Insomnia games at 2, 4, 6 and 8 players (`--timing-games`, 20
  by default), the mean and the longest `choose_action` call by phase. Aim: single-digit milliseconds on
  average (live sessions call it on every computer turn).
Figures are printed; nothing is asserted. `--write` also puts them in docs/benchmarks.md (section
"ai-strength").
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tqdm import tqdm

from bench.report import write_section
from bot.games import insomnia, malice
from bot.games.ai import choose_action, random_action
from bot.render.figures import shares
from bot.simulate import play_game, simulate

AI = "ai:1"
# Games per player count beyond `--games` where a small mean needs them to be resolved (see the docstring).
EXTRA_GAMES = {6: 4000, 7: 6000, 8: 10000}
# Malice's rule sets: the standard rules and house rule H4 (docs/rules.md section 3).
MALICE_RULES: dict[str, dict[str, str]] = {"standard rules": {}, "discard=required": {"discard": "required"}}


def _choosers(player: str):
    return choose_action if player == AI else random_action


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def bench_malice(games: int, seed: str, rules: str = "standard rules") -> str:
    """Prints the figures; returns them as one markdown paragraph."""
    wins = draws = 0
    scores = []
    start = time.perf_counter()
    for g in tqdm(range(games), desc=f"malice, {rules}", unit="game", file=sys.stderr):
        seats = [AI, "random"] if g % 2 == 0 else ["random", AI]
        game = malice.new_game(seats, f"{seed}/malice/{g}", **MALICE_RULES[rules])
        play_game(game, _choosers, f"{seed}/malice/{g}")
        winner = game.result.winner
        wins += winner == AI
        draws += winner is None
        if winner == AI:
            scores.append(game.result.score)
    elapsed = time.perf_counter() - start
    low, high = wilson(wins, games)
    rate = games / elapsed
    print(f"Malice, {rules}, computer vs random moves, {games} games ({elapsed:.0f} s, {rate:.1f} games/s):")
    print(
        f"  won {wins} ({100 * wins / games:.1f}%, 95% CI {100 * low:.1f}% to {100 * high:.1f}%), "
        f"drawn {draws}, lost {games - wins - draws}   aim: at least 90%  "
        f"{'MET' if wins / games >= 0.9 else 'NOT MET'}"
    )
    if scores:
        print(f"  score of a win (cards left in the opponent's pile): mean {statistics.mean(scores):.1f}")
    aim = "met" if wins / games >= 0.9 else "NOT met"
    return (
        f"**Malice**, {rules}, {games:,} games, seats alternating: the computer won **{wins}** "
        f"({100 * wins / games:.1f}%, 95% Wilson interval {100 * low:.1f}% to {100 * high:.1f}%), "
        f"drew {draws} and lost {games - wins - draws} (aim: at least 90%; {aim}); {rate:.1f} games/s"
        + (f"; a win scores {statistics.mean(scores):.1f} cards on average." if scores else ".")
    )


def bench_malice_race(games: int, seed: str) -> list[str]:
    """How computer-against-computer Malice games end at each rule set (the simulator's games)."""
    rows = [
        f"**Malice as a race**: {games} computer-against-computer games at each rule set, how they ended "
        f"(`python -m bot simulate --game malice --games {games} --seed {seed}`, and with "
        "`--option discard=required`). Rule 16 ends a game when both players end a turn without moving a "
        "card, so the player ahead ends it as soon as the other has no move; under house rule H4 a player "
        "may end his turn without a side play only when no card of his hand fits a side stack, so a "
        "stalemate needs both players without one (aim, house rule: at least half end with a payoff pile "
        "emptied):",
        "",
        "| rules | payoff pile emptied | stalemate | turn cap | turns per game (mean) | aim |",
        "|---|---|---|---|---|---|",
    ]
    for rules, options in MALICE_RULES.items():
        report = simulate("malice", 2, games, seed, options=options, progress=True)
        ends = report.end_reasons
        print(
            f"Malice, {rules}, computer vs computer, {games} games, seed {seed}: {shares(ends, report.games)}"
        )
        emptied = ends.get("payoff_emptied", 0) / report.games
        aim = ("met" if emptied >= 0.5 else "NOT met") if options else "–"

        cells = [
            f"{ends.get(r, 0)} ({100 * ends.get(r, 0) / games:.1f}%)"
            for r in ("payoff_emptied", "stalemate", "turn_cap")
        ]
        rows.append(f"| {rules} | {' | '.join(cells)} | {statistics.mean(report.lengths):.1f} | {aim} |")
    return rows


def _mean_ci(nets: list[int]) -> tuple[float, float, float, float]:
    """Mean, standard deviation and the 95% confidence interval of the mean (normal approximation)."""
    mean, sd = statistics.mean(nets), statistics.stdev(nets)
    half = 1.96 * sd / math.sqrt(len(nets))
    return mean, sd, mean - half, mean + half


def bench_insomnia(games: int, players: int, seed: str, why_more: str = "") -> tuple[list[int], str]:
    """The computer's net chips per game, and the markdown table row of this player count."""
    nets = []
    wins = 0
    start = time.perf_counter()
    for g in tqdm(range(games), desc=f"insomnia x{players}", unit="game", file=sys.stderr):
        seats = [f"random:{i}" for i in range(players - 1)]
        seats.insert(g % players, AI)
        game = insomnia.new_game(seats, f"{seed}/insomnia/{players}/{g}")
        play_game(game, _choosers, f"{seed}/insomnia/{players}/{g}")
        mine = next(s for s in game.standings() if s.player == AI)
        nets.append(mine.net)
        wins += mine.won
    elapsed = time.perf_counter() - start
    mean, sd, low, high = _mean_ci(nets)
    print(
        f"Insomnia, {players} players (computer + {players - 1} random), {games} games ({elapsed:.0f} s)"
        f"{why_more}:"
    )
    print(
        f"  computer's net chips per game: mean {mean:+.3f}, stddev {sd:.2f}, 95% CI {low:+.3f} to "
        f"{high:+.3f}   aim: CI above 0  {'MET' if low > 0 else 'NOT MET'}"
    )
    zero = sum(1 for n in nets if n == 0)
    print(
        f"  placed first in {wins} games ({100 * wins / games:.1f}%; a random seat's share is "
        f"{100 / players:.1f}%); net exactly 0 in {100 * zero / games:.1f}%"
    )
    row = (
        f"| {players} | {games:,} | {mean:+.3f} | {sd:.2f} | {low:+.3f} to {high:+.3f} | "
        f"{100 * zero / games:.1f}% | {100 * wins / games:.1f}% | {'met' if low > 0 else 'NOT met'} |"
    )
    return nets, row


def bench_decision_time(games: int, seed: str) -> list[str]:
    """Time every `choose_action` call of whole computer-vs-computer games, by player count and phase. The
    caches warm up as in a live bot process (the first exchange builds the stage-2 table, about 0.15 s)."""
    times: dict[tuple[int, str], list[float]] = {}
    for players in (2, 4, 6, 8):
        for g in range(games):
            game = insomnia.new_game([f"ai:{i}" for i in range(players)], f"{seed}/timing/{players}/{g}")
            step = 0
            while not game.is_over:
                player = game.current_player
                phase = game.phase
                start = time.perf_counter()
                action = choose_action(game, player, f"{seed}/timing/{g}/{step}")
                times.setdefault((players, phase), []).append(time.perf_counter() - start)
                game.apply(action)
                step += 1
    print(f"Insomnia decision time, computer against computer, {games} games per count (mean / longest, ms):")
    phases = ("exchange", "auction", "rethrow", "tricks")
    rows = [
        f"**Decision time**: {games} computer-against-computer Insomnia games per player count, mean / "
        "longest `choose_action` call in ms (caches warming up as in a live process; the first exchange of a "
        "process builds the stage-2 table):",
        "",
        "| players | " + " | ".join(phases) + " |",
        "|---" * (len(phases) + 1) + "|",
    ]
    for players in (2, 4, 6, 8):
        cells = [
            f"{phase} {1000 * statistics.mean(t):.2f} / {1000 * max(t):.1f} ({len(t)})"
            for (n, phase), t in times.items()
            if n == players
        ]
        print(f"  {players} players: " + ", ".join(cells))
        row = [
            f"{1000 * statistics.mean(t):.2f} / {1000 * max(t):.1f}"
            if (t := times.get((players, phase)))
            else "–"
            for phase in phases
        ]
        rows.append(f"| {players} | " + " | ".join(row) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=list(range(2, 9)), help="Insomnia tables")
    parser.add_argument("--no-extra", action="store_true", help="--games at every count, no EXTRA_GAMES")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--skip", choices=["malice", "insomnia"], default=None)
    parser.add_argument("--timing-games", type=int, default=20, help="0: no decision timing")
    parser.add_argument("--race-games", type=int, default=300, help="Malice computer games per rule set")
    parser.add_argument("--race-seed", default="11", help="their seed (as `simulate --seed`)")
    parser.add_argument("--write", action="store_true", help="also write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, Python {platform.python_version()}")
    section = [
        "## Computer players",
        "",
        "Opponents choose a uniformly random legal action (`bot.games.ai.random_action`); every game is "
        f"seeded from `{args.seed}`.",
    ]
    if args.skip != "malice":
        for rules in MALICE_RULES:
            section += ["", bench_malice(args.games, args.seed, rules)]
        if args.race_games:
            section += ["", *bench_malice_race(args.race_games, args.race_seed)]
    if args.skip != "insomnia":
        pooled: list[int] = []
        rows: list[str] = []
        for n in args.players:
            games = args.games if args.no_extra else max(args.games, EXTRA_GAMES.get(n, 0))
            why = f" (more than {args.games}: a small mean next to its spread)" if games > args.games else ""
            nets, row = bench_insomnia(games, n, args.seed, why)
            pooled += nets
            rows.append(row)
        section += [
            "",
            "**Insomnia**, one computer seat (rotating) among random players, 15 chips each, the "
            "computer's net chips per game; the 95% interval is the mean ± 1.96 standard errors (aim: the "
            "interval above 0). At 6-8 players nearly every game ends in the first auction with nothing won "
            "or lost, so those counts play more games, fixed in the script beforehand (`EXTRA_GAMES`):",
            "",
            "| players | games | mean | stddev | 95% CI of the mean | net exactly 0 | placed first | aim |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
        if len(args.players) > 1:
            mean, sd, low, high = _mean_ci(pooled)
            counts = ", ".join(map(str, args.players))
            print(
                f"Insomnia, pooled over {len(pooled)} games at {counts} players: "
                f"net chips per game mean {mean:+.3f}, stddev {sd:.2f}, 95% CI {low:+.3f} to {high:+.3f}  "
                f"{'MET' if low > 0 else 'NOT MET'}"
            )
            section.append(
                f"| pooled | {len(pooled):,} | {mean:+.3f} | {sd:.2f} | {low:+.3f} to {high:+.3f} "
                f"| | | {'met' if low > 0 else 'NOT met'} |"
            )
    if args.timing_games:
        section += ["", *bench_decision_time(args.timing_games, args.seed)]
    if args.write:
        write_section("ai-strength", "\n".join(section))


if __name__ == "__main__":
    main()
