"""Picture benchmark: run `python bench/bench_pictures.py` from the repository root (--runs N, --write).

For each kind of picture (the sample states of tests/render/states.py), in one run:
- first: the very first picture, with every sprite cache empty (cards, dice, text drawn on the way);
- drawn: a new state with the sprites cached, the picture cache empty (what a move costs; aim: at most 10 ms);
- cached: the same state again, the picture looked up by its public view's JSON;
- the PNG's size (aim: at most 150 KB);
against a baseline measured in the same run: an empty canvas of the same size, encoded the same way.
Figures are medians of `--runs` (p95 in brackets); nothing is asserted. `--write` puts the table into
docs/benchmarks.md (its "pictures" section).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import write_section
from bot.render.drawings import CACHE, hand_picture, table_picture
from bot.render.pictures import sprites
from bot.render.pictures.canvas import new_canvas, png
from tests.render.states import STATES

# The process's CPU time, not the wall clock: on a machine others load too, the wall clock counts their turns
# on the cores; the drawing is this process's own work (one thread).
clock = time.process_time
KINDS = [
    ("Insomnia table, 4 seats, exchanges", "insomnia-exchange", "table"),
    ("Insomnia table, 6 seats, a trick", "insomnia-tricks", "table"),
    ("Insomnia table, game over", "insomnia-over", "table"),
    ("Insomnia hand, cards to play", "insomnia-tricks", "hand"),
    ("Malice table, turn 41", "malice-middle", "table"),
    ("Malice table, 13-card side stack", "malice-fanned", "table"),
    ("Malice hand, moves marked", "malice-middle", "hand"),
]


INTRO = """## Pictures

Command (from the repository root, in the project's virtualenv):

```sh
python bench/bench_pictures.py            # --runs 50 (default), --write, --baseline main
```

Each picture of a sample state (`tests/render/states.py`), timed in the bench process's CPU time: *first* is
the very first picture with every sprite cache empty (the font loaded, every card and die drawn on the way);
*drawn* a new state with the sprites cached and the picture cache empty, which is what a move costs: drawing,
palette reduction and PNG encoding (aim: at most 10 ms); *cached* the same state again (the public view, its
JSON and the LRU lookup). The baseline is an empty canvas of the same size, encoded the same way in the same
run. Aim for the PNG: at most 150 KB. With `--baseline REV`, the same figures of revision REV's code (its
files as git has them, in a process of its own, just before this code's) stand beside them: *drawn* and the
PNG's size. """


def clear_sprites() -> None:
    for value in vars(sprites).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:.2f} ({p95 * 1000:.2f})"


def measure(state: str, what: str, runs: int) -> dict[str, str]:
    info, game, player = STATES[state]()

    def draw():
        return table_picture(info, game) if what == "table" else hand_picture(info, game, player)

    clear_sprites()
    CACHE.clear()
    start = clock()
    picture = draw()
    first = clock() - start
    drawn, cached, baseline = [], [], []
    for _ in range(runs):
        CACHE.clear()
        start = clock()
        draw()
        drawn.append(clock() - start)
        start = clock()
        draw()
        cached.append(clock() - start)
    width, height = Image.open(io.BytesIO(picture.data)).size
    empty = b""
    for _ in range(runs):
        start = clock()
        empty = png(new_canvas(height, width))
        baseline.append(clock() - start)
    return {
        "size": f"{width}×{height}",
        "first": f"{first * 1000:.1f}",
        "drawn": ms(drawn),
        "cached": ms(cached),
        "baseline": ms(baseline),
        "kb": f"{len(picture.data) / 1024:.1f}",
        "empty_kb": f"{len(empty) / 1024:.1f}",
    }


ROOT = Path(__file__).resolve().parent.parent
# A baseline revision's own `measure` (its drawing code, its sample states), run in a process of its own.
AT_REVISION = """
import json, sys
sys.path.insert(0, sys.argv[1])
import time
import bench.bench_pictures as bench
from bench.bench_pictures import KINDS, measure
bench.clock = time.process_time  # as this code measures (an older revision may time the wall clock)
print(json.dumps([measure(state, what, int(sys.argv[2])) for _, state, what in KINDS]))
"""


def at_revision(revision: str, runs: int) -> list[dict[str, str]]:
    """`measure` of every kind with the code of git revision `revision` (its files as git has them)."""
    with tempfile.TemporaryDirectory() as folder:
        git = ["git", "-C", str(ROOT), "archive", revision]
        archive = subprocess.run(git, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": folder}
        out = subprocess.run(
            [sys.executable, "-c", AT_REVISION, folder, str(runs)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=folder,
        ).stdout
    figures: list[dict[str, str]] = json.loads(out.strip().splitlines()[-1])
    return figures


def table(
    rows: list[tuple[str, dict[str, str]]], before: list[dict[str, str]] | None = None, revision: str = ""
) -> str:
    then = f" drawn at `{revision}` (ms) | PNG at `{revision}` (KB) |" if before else ""
    head = (
        "| picture | pixels | first, no sprites (ms) | drawn (ms) | cached (ms) | empty canvas (ms) "
        f"| PNG (KB) | empty PNG (KB) |{then}\n|---|---|---|---|---|---|---|---|"
        + ("---|---|" if before else "")
    )
    lines = [
        f"| {name} | {r['size']} | {r['first']} | {r['drawn']} | {r['cached']} | {r['baseline']} | {r['kb']} "
        f"| {r['empty_kb']} |" + (f" {before[i]['drawn']} | {before[i]['kb']} |" if before else "")
        for i, (name, r) in enumerate(rows)
    ]
    return "\n".join([head, *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="draws per picture (default 50)")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/benchmarks.md")
    parser.add_argument(
        "--baseline", metavar="REV", help="also measure git revision REV's pictures (say main), in this run"
    )
    args = parser.parse_args()
    before = at_revision(args.baseline, args.runs) if args.baseline else None
    rows = [(name, measure(state, what, args.runs)) for name, state, what in KINDS]
    markdown = table(rows, before, args.baseline or "")
    print(markdown)
    if args.write:
        section = f"{INTRO}Medians of {args.runs} runs, p95 in brackets.\n\n{markdown}"
        write_section("pictures", section)
        print("written to docs/benchmarks.md")


if __name__ == "__main__":
    main()
