"""Engine benchmark: run `python bench/bench_engines.py` from the repository root (options: --quick).

1. Full random games per second: Insomnia for 2 to 8 players, and Malice. A random player picks uniformly
   among `legal_actions()` with its own seeded generator.
2. `hand_value` evaluations per second against the `treys` package's 5-card `Evaluator().evaluate`, both on
   random hands, measured in the same run (the ratio is printed).
3. The cost per action of `legal_actions()` and of `apply()`, for both games.
4. A full random Malice game (aim: under 20 ms) and a full Insomnia deal (aim: under 2 ms), each the time
   from the start to the end of the deal or game.
Figures are printed; nothing is asserted. `--write` also puts them in docs/benchmarks.md (section "engines").
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import write_section
from bot.games import insomnia, malice
from bot.games.insomnia import deck_for, hand_value

clock = time.perf_counter


class Tally:
    """Time spent in legal_actions() and apply(), and the number of actions."""

    def __init__(self) -> None:
        self.legal = self.apply = 0.0
        self.actions = 0


def random_game(game, rng: random.Random, tally: Tally, deal_times: list[float] | None = None) -> None:
    """Play `game` to its end with uniformly random legal actions. With `deal_times`, the wall time of every
    Insomnia deal that ran to its end is appended (a deal cut short by the end of the game is not)."""
    deal_start = clock()
    while not game.is_over:
        t0 = clock()
        legal = game.legal_actions()
        t1 = clock()
        events = game.apply(rng.choice(legal))
        t2 = clock()
        tally.legal += t1 - t0
        tally.apply += t2 - t1
        tally.actions += 1
        if deal_times is not None:
            for event in events:
                if event.kind == "deal_ended":
                    deal_times.append(t2 - deal_start)
                    deal_start = t2


def bench_insomnia(games: int, rows: list[str]) -> Tally:
    """Appends one markdown table row per player count to `rows`."""
    print("\n== Insomnia: full random games ==")
    print(f"{'players':>7} {'games/s':>9} {'deals/game':>11} {'actions/game':>13} {'full deal ms':>13}")
    total = Tally()
    for n in range(2, 9):
        rng = random.Random(n)
        players = [f"p{i}" for i in range(n)]
        tally, deal_times, deals = Tally(), [], 0
        start = clock()
        for g in range(games):
            game = insomnia.new_game(players, f"bench-{n}-{g}")
            random_game(game, rng, tally, deal_times)
            deals += game.deal
        elapsed = clock() - start
        deal_ms = f"{1000 * statistics.median(deal_times):.3f}" if deal_times else "-"
        print(
            f"{n:>7} {games / elapsed:>9.0f} {deals / games:>11.2f} {tally.actions / games:>13.1f} "
            f"{deal_ms:>13}"
        )
        rows.append(
            f"| {n} | {games / elapsed:,.0f} | {deals / games:.2f} | {tally.actions / games:.1f} | "
            f"{deal_ms if deal_times else '–'} |"
        )
        total.legal += tally.legal
        total.apply += tally.apply
        total.actions += tally.actions
    print("(full deal: median wall time of the deals that ran to their end, new deal set-up included)")
    return total


def bench_insomnia_deals(deals: int) -> str:
    """Whole deals at the default 15 chips: the random players here bid at most 3 (a uniformly random bid
    of up to all one's chips ends most games inside their first deal), and a game that ends is replaced by a
    new one; only the deals that run to their end are timed, from the end of the previous deal (or from
    `new_game`) to the end of this one."""
    print("\n== Insomnia: full deals (4 players, random play with bids of at most 3) ==")
    rng = random.Random(99)
    players = [f"p{i}" for i in range(4)]
    times: list[float] = []
    games = 0
    deal_start = clock()
    game = insomnia.new_game(players, "deals-0")
    while len(times) < deals:
        legal = game.legal_actions()
        choices = [a for a in legal if a.kind != "bid" or a.amount <= 3]
        for event in game.apply(rng.choice(choices)):
            if event.kind == "deal_ended":
                now = clock()
                times.append(now - deal_start)
                deal_start = now
        if game.is_over:
            games += 1
            deal_start = clock()
            game = insomnia.new_game(players, f"deals-{games}")
    ms = sorted(1000 * t for t in times)
    figures = (
        f"median {statistics.median(ms):.3f} ms, mean {statistics.mean(ms):.3f} ms, 95th percentile "
        f"{ms[int(0.95 * len(ms))]:.3f} ms"
    )
    print(f"{deals} full deals ({games} games): {figures}  (aim: under 2 ms)")
    return f"**{deals} full deals ({games} games): {figures}** (aim: under 2 ms)."


def bench_malice(games: int) -> tuple[Tally, str]:
    print("\n== Malice: full random games ==")
    rng = random.Random(7)
    tally, times, turns, reasons = Tally(), [], [], {}
    for g in range(games):
        start = clock()
        game = malice.new_game(["a", "b"], f"bench-{g}")
        random_game(game, rng, tally)
        times.append(clock() - start)
        turns.append(game.turn)
        reasons[game.result.reason] = reasons.get(game.result.reason, 0) + 1
    ms = [1000 * t for t in times]
    ends = ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items()))
    text = (
        f"{games} games: {games / sum(times):.0f} games/s; a full game median "
        f"{statistics.median(ms):.2f} ms, mean {statistics.mean(ms):.2f} ms (aim: under 20 ms); "
        f"{statistics.mean(turns):.1f} turns and {tally.actions / games:.1f} actions per game; "
        f"ends: {ends}"
    )
    print(text)
    return tally, text


def bench_hand_value(hands: int) -> list[str]:
    """Prints the comparison; returns it as markdown lines (a note when treys is missing)."""
    print("\n== hand_value against treys ==")
    try:
        from treys import Card as TCard
        from treys import Evaluator
    except ImportError:
        print("treys is not installed (pip install -e '.[dev]'): skipped")
        return ["`treys` was not installed (`pip install -e '.[dev]'`): the comparison was skipped."]
    rng = random.Random(3)
    deck = deck_for(8)  # the 32-card deck: all 35,960 four-card hands are in the table
    ours = [rng.sample(deck, 4) for _ in range(hands)]
    tdeck = [TCard.new(r + s) for r in "23456789TJQKA" for s in "shdc"]
    theirs = [rng.sample(tdeck, 5) for _ in range(hands)]
    evaluator = Evaluator()
    hand_value(ours[0])  # build the lookup table outside the timing
    evaluate = evaluator.evaluate
    rounds = []
    for _ in range(3):
        t0 = clock()
        for h in ours:
            hand_value(h)
        t1 = clock()
        for h in theirs:
            evaluate(h[:2], h[2:])
        t2 = clock()
        rounds.append((t1 - t0, t2 - t1))
    mine, treys_t = min(r[0] for r in rounds), min(r[1] for r in rounds)
    print(
        f"hand_value (4 cards, bot.games.insomnia): {hands / mine / 1e6:.2f} M/s, "
        f"{1e6 * mine / hands:.3f} µs/hand"
    )
    print(
        f"treys Evaluator().evaluate (5 cards):    {hands / treys_t / 1e6:.2f} M/s, "
        f"{1e6 * treys_t / hands:.3f} µs/hand"
    )
    print(f"ratio hand_value / treys time per hand: {mine / treys_t:.2f} (below 1: hand_value is faster)")
    t0 = clock()
    for h in ours[: hands // 10]:
        hand_value(h).category  # noqa: B018 - the attribute read is what a caller pays for
    t1 = clock()
    with_category = 1e6 * (t1 - t0) / (hands // 10)
    print(f"hand_value + .category: {with_category:.3f} µs/hand")
    return [
        f"**hand_value against treys**, {hands:,} random hands each, same run, best of 3 rounds:",
        "",
        "| evaluator | µs per hand |",
        "|---|---|",
        f"| `bot.games.insomnia.hand_value` (4 cards, 32-card deck) | {1e6 * mine / hands:.2f} |",
        f"| `treys` `Evaluator().evaluate` (5 cards) | {1e6 * treys_t / hands:.2f} |",
        f"| ratio hand_value / treys | **{mine / treys_t:.2f}** (aim: at most 1) |",
        f"| `hand_value` and reading `.category` | {with_category:.2f} |",
    ]


def report(name: str, tally: Tally) -> str:
    per = 1e6 / tally.actions
    print(
        f"{name}: legal_actions() {tally.legal * per:.1f} µs, apply() {tally.apply * per:.1f} µs, together "
        f"{(tally.legal + tally.apply) * per:.1f} µs per action ({tally.actions} actions)"
    )
    return (
        f"| {name} | {tally.legal * per:.1f} | {tally.apply * per:.1f} | "
        f"{(tally.legal + tally.apply) * per:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a fast check that it runs)")
    parser.add_argument("--write", action="store_true", help="also write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(
        f"machine: {platform.platform()}, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}"
    )
    games = 2000 // scale
    hand_lines = bench_hand_value(200_000 // scale)
    rows: list[str] = []
    ins = bench_insomnia(games, rows)
    deals = bench_insomnia_deals(5000 // scale)
    mal, malice_text = bench_malice(1000 // scale)
    print("\n== cost per action ==")
    costs = [report("Insomnia (random games, 2-8 players)", ins), report("Malice (random games)", mal)]
    if args.write:
        write_section(
            "engines",
            "\n".join(
                [
                    "## Engines",
                    "",
                    "Random players pick uniformly among `legal_actions()` with their own seeded generator.",
                    "",
                    *hand_lines,
                    "",
                    f"**Full random Insomnia games** ({games:,} per player count; full deal: the median "
                    "wall time of "
                    "the deals that ran to their end, the next deal's set-up included; – when none did):",
                    "",
                    "| players | games/s | deals per game | actions per game | full deal, median ms |",
                    "|---|---|---|---|---|",
                    *rows,
                    "",
                    "Random games are short: a uniformly random bid is often all of a player's chips, and a "
                    "player "
                    "at 0 chips ends the game (rule 31). So full deals are also measured on their own: 4 "
                    "players, "
                    "15 chips, random play with bids of at most 3, a new game whenever one ends:",
                    "",
                    deals,
                    "",
                    f"**Malice**, random players: {malice_text}.",
                    "",
                    "**Cost per action** (all the random games above):",
                    "",
                    "| game | `legal_actions()` µs | `apply()` µs | together µs |",
                    "|---|---|---|---|",
                    *costs,
                ]
            ),
        )


if __name__ == "__main__":
    main()
