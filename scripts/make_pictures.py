"""Draw the bot's own pictures on the documentation site and in the README (docs/pictures/, in git; checked
against the renderers by tests/render/test_doc_pictures.py) or, with --golden, the golden pictures the
picture tests compare against (tests/render/golden/, as a phone shows them: see tests/render/golden.py). Run
from the repository root after changing how pictures look, LOOK at the result, and commit it.

    python scripts/make_pictures.py            # docs/pictures/*.png, and docs/pictures/names/ (below)
    python scripts/make_pictures.py --golden   # tests/render/golden/*.png (as UPDATE_GOLDEN=1 pytest does)
    python scripts/make_pictures.py --phone /tmp/phone   # and the names set at a phone's 360 px, to look at

docs/pictures/names/ holds every picture drawn with the names of a real international server (issue 39:
tests/render/names.py), in English and German: an eight-seat Insomnia table and hand, the two Maximilians
at Malice, both result cards, a /stats chart, a Swiss's standings and a knockout's bracket.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import render  # noqa: E402
from bot.render import tournament as words  # noqa: E402
from bot.render.charts import stats_chart  # noqa: E402
from bot.render.common import Picture  # noqa: E402
from bot.render.drawings import hand_picture, table_picture  # noqa: E402
from tests.render import golden, names  # noqa: E402
from tests.render.states import STATES  # noqa: E402
from tests.render.states import info as table_info  # noqa: E402
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


def named(what: str, locale: str) -> Picture | None:
    """One picture of the names set (`names`), in `locale`."""
    people = names.PEOPLE
    if what.startswith("insomnia"):
        table = table_info("insomnia", people, names=names.NAMES)
        if what == "insomnia-table":
            return table_picture(table, names.insomnia_tricks(), locale=locale)
        if what == "insomnia-hand":
            return hand_picture(table, names.insomnia_tricks(), people[0], locale=locale)
        game = names.finished("insomnia", people, chips=15, max_deals=1)
        return render.table_picture(table.model_copy(update={"status": "finished"}), game, locale=locale)
    if what.startswith("malice"):
        pair = people[:2]  # Wolkenstein and Weinsteiger: alike up to the last word
        table = table_info("malice", pair, names={p: names.NAMES[p] for p in pair})
        if what == "malice-table":
            return table_picture(table, names.malice_middle(pair), locale=locale)
        if what == "malice-hand":
            return hand_picture(table, names.malice_middle(pair), pair[1], locale=locale)
        game = names.finished("malice", pair)
        return render.table_picture(table.model_copy(update={"status": "finished"}), game, locale=locale)
    if what == "stats-chart":
        return stats_chart(names.CHIPS, SEASON, season="2026-12", locale=locale, name=names.NAMES[people[3]])
    if what == "standings":
        return words.standings_picture(names.board("swiss"), locale)
    return words.bracket_picture(names.board("knockout"), locale)


NAMED = (
    "insomnia-table",
    "insomnia-hand",
    "insomnia-result",
    "malice-table",
    "malice-hand",
    "malice-result",
    "stats-chart",
    "standings",
    "bracket",
)


def write_names(phone: Path | None) -> None:
    folder = ROOT / "docs/pictures/names"
    folder.mkdir(parents=True, exist_ok=True)
    for what in NAMED:
        for locale in ("en", "de"):
            picture = named(what, locale)
            assert picture is not None, what
            path = folder / f"{what}-{locale}.png"
            path.write_bytes(picture.data)
            print(f"{path.relative_to(ROOT)}  {len(picture.data) / 1024:.1f} KB")
            if phone is not None:  # as Discord shows it on a phone: for looking at, not kept in git
                phone.mkdir(parents=True, exist_ok=True)
                image = Image.open(io.BytesIO(picture.data)).convert("RGB")
                size = (golden.PHONE, round(image.height * golden.PHONE / image.width))
                image.resize(size, Image.Resampling.LANCZOS).save(phone / path.name)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", action="store_true", help="write the golden images of the tests")
    parser.add_argument("--phone", type=Path, help="a folder for the names set at 360 px (not for git)")
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
    write_names(args.phone)


if __name__ == "__main__":
    main()
