"""Draw the sample pictures of the README (docs/pictures/) or, with --golden, the golden images the picture
tests compare against (tests/render/golden/). Run from the repository root after changing how pictures look,
look at the result, and commit it.

    python scripts/make_pictures.py            # docs/pictures/*.png
    python scripts/make_pictures.py --golden   # tests/render/golden/*.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.render.pictures import hand_picture, table_picture  # noqa: E402
from tests.render.states import STATES  # noqa: E402

# The README shows a few; the golden set covers every sample state, table and hand.
SAMPLES = {
    "insomnia-table": ("insomnia-tricks", "table"),
    "insomnia-hand": ("insomnia-tricks", "hand"),
    "insomnia-over": ("insomnia-over", "table"),
    "malice-table": ("malice-middle", "table"),
    "malice-hand": ("malice-middle", "hand"),
    "malice-over": ("malice-over", "table"),
}


def golden_set() -> dict[str, tuple[str, str]]:
    out = {}
    for state in STATES:
        out[f"{state}-table"] = (state, "table")
        if not state.endswith("over"):
            out[f"{state}-hand"] = (state, "hand")
    return out


def draw(state: str, what: str) -> bytes:
    info, game, player = STATES[state]()
    picture = table_picture(info, game) if what == "table" else hand_picture(info, game, player)
    assert picture is not None
    return picture.data


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", action="store_true", help="write the golden images of the tests")
    args = parser.parse_args()
    folder = ROOT / ("tests/render/golden" if args.golden else "docs/pictures")
    folder.mkdir(parents=True, exist_ok=True)
    for name, (state, what) in (golden_set() if args.golden else SAMPLES).items():
        data = draw(state, what)
        (folder / f"{name}.png").write_bytes(data)
        print(f"{folder.relative_to(ROOT)}/{name}.png  {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
