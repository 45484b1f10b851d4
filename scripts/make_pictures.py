"""Draw the bot's own pictures on the documentation site and in the README (docs/pictures/, in git; checked
against the renderers by tests/render/test_doc_pictures.py) or, with --golden, the golden pictures the
picture tests compare against (tests/render/golden/, as a phone shows them: see tests/render/golden.py). Run
from the repository root after changing how pictures look, LOOK at the result, and commit it.

    python scripts/make_pictures.py            # docs/pictures/*.png
    python scripts/make_pictures.py --golden   # tests/render/golden/*.png (as UPDATE_GOLDEN=1 pytest does)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import render  # noqa: E402
from bot.render.charts import stats_chart  # noqa: E402
from bot.render.drawings import hand_picture, table_picture  # noqa: E402
from tests.render import golden  # noqa: E402
from tests.render.states import STATES  # noqa: E402
from tests.render.test_result_card import RATED  # noqa: E402
from tests.render.test_stats_chart import CHIPS  # noqa: E402
from tests.render.test_stats_chart import RATED as SEASON  # noqa: E402

# The site shows these (the README one of them), full size; the golden set is tests/render/golden.py's.
_SHOWN = {
    "insomnia-table": ("insomnia-tricks", "table"),
    "insomnia-hand": ("insomnia-tricks", "hand"),
    "insomnia-over": ("insomnia-over", "result"),
    "malice-table": ("malice-middle", "table"),
    "malice-hand": ("malice-middle", "hand"),
    "malice-over": ("malice-over", "result"),
    "stats-chart": ("", "chart"),
    "insomnia-stage4": ("insomnia-stage4", "table"),
}
# Each in English for the English pages and the README, and in German for the German players' pages (-de).
SAMPLES = {
    f"{name}{'-de' if locale == 'de' else ''}": (state, what, locale)
    for locale in ("en", "de")
    for name, (state, what) in _SHOWN.items()
}


def draw(state: str, what: str, locale: str = "en") -> bytes:
    if what == "chart":  # /stats: a season's chips and ratings
        chart = stats_chart(CHIPS, SEASON, season="2026-12", locale=locale)
        assert chart is not None
        return chart.data
    info, game, player = STATES[state]()
    if what == "result":  # a finished table message's result card (the Insomnia game rated)
        rated = RATED if info.kind == "insomnia" else []
        picture = render.table_picture(info.model_copy(update={"ratings": rated}), game, locale=locale)
    elif what == "table":
        picture = table_picture(info, game, locale=locale)
    else:
        picture = hand_picture(info, game, player, locale=locale)
    assert picture is not None
    return picture.data


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", action="store_true", help="write the golden images of the tests")
    args = parser.parse_args()
    if args.golden:
        for name in golden.CASES:
            written = golden.write(name)
            print(f"{written.relative_to(ROOT)}  {written.stat().st_size / 1024:.1f} KB")
        return
    folder = ROOT / "docs/pictures"
    folder.mkdir(parents=True, exist_ok=True)
    for name, (state, what, locale) in SAMPLES.items():
        data = draw(state, what, locale)
        (folder / f"{name}.png").write_bytes(data)
        print(f"{folder.relative_to(ROOT)}/{name}.png  {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
