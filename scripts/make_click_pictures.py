"""Draw the site's pictures of play by clicks (docs/pictures/built/click-table.png, click-dialog.png): the
table message of a Malice game in a server channel and the Move dialog its mover opens from it, both composed
by the bot's own code (`bot.render.compose`) and laid out roughly as Discord's client shows them. Run from the
repository root (scripts/make_site_pictures.py does, and CI before `mkdocs build`) and LOOK at the result.

    python scripts/make_click_pictures.py
"""

from __future__ import annotations

import io
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.discord_out import discord_words  # noqa: E402
from bot.games import malice  # noqa: E402
from bot.i18n import t  # noqa: E402
from bot.render.compose import compose, table_message  # noqa: E402
from tests.render.states import MALICE_SEATS, NAMES, info  # noqa: E402

OUT = ROOT / "docs" / "pictures" / "built"  # made for the site at build time, not in git
WIDTH = 760
BG, CARD, TEXT, MUTED = (49, 51, 56), (43, 45, 49), (219, 222, 225), (148, 155, 164)
STYLES = {
    "success": (36, 128, 70),
    "primary": (88, 101, 242),
    "secondary": (78, 80, 88),
    "danger": (218, 55, 60),
}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def font(size: int, bold: bool = False) -> Any:
    try:
        return ImageFont.truetype(BOLD if bold else FONT, size)
    except OSError:
        return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Step:
    count: int
    events: tuple[Any, ...]
    game: Any


def plain(text: str) -> str:
    """The words as Discord's client shows them: drawn in Discord's markup (`bot.discord_out`), then the
    mentions by name, the relative time, no emoji the font lacks."""
    text = discord_words(text)
    text = re.sub(r"<@(\d+)>", lambda m: "@" + NAMES.get(m[1], m[1]), text)
    text = re.sub(r"<t:\d+:R>", "in 2 minutes", text)
    text = text.replace("**", "")
    return "".join(c for c in text if ord(c) < 0x2190 or 0x2660 <= ord(c) <= 0x2667 or c in "→—·")


def wrap(draw: ImageDraw.ImageDraw, text: str, f: Any, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if draw.textlength(trial, font=f) <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


class Canvas:
    def __init__(self, height: int = 2400) -> None:
        self.image = Image.new("RGB", (WIDTH, height), BG)
        self.draw = ImageDraw.Draw(self.image)
        self.y = 16

    def text(
        self,
        text: str,
        *,
        x: int = 72,
        size: int = 15,
        bold: bool = False,
        colour: Any = TEXT,
        width: int = WIDTH - 100,
    ) -> None:
        f = font(size, bold)
        for line in wrap(self.draw, plain(text), f, width):
            self.draw.text((x, self.y), line, font=f, fill=colour)
            self.y += size + 6

    def buttons(self, rows: list[list[Any]], x: int = 72) -> None:
        f = font(14, True)
        for row in rows:
            left = x
            for button in row:
                label = plain(button.label)
                w = int(self.draw.textlength(label, font=f)) + 28
                box = (left, self.y, left + w, self.y + 32)
                self.draw.rounded_rectangle(box, 4, fill=STYLES[button.style])
                self.draw.text((left + 14, self.y + 8), label, font=f, fill=(255, 255, 255))
                left += w + 8
            self.y += 40

    def done(self, path: Path) -> None:
        self.image.crop((0, 0, WIDTH, self.y + 16)).save(path, optimize=True)
        print(f"wrote {path.relative_to(ROOT)}")


def malice_game() -> tuple[Any, Any, list[Step]]:
    game = malice.new_game(list(MALICE_SEATS), "readme-clicks")
    steps = [Step(0, tuple(game.opening_events), game.model_copy(deep=True))]
    rng = random.Random(3)
    for count in range(1, 14):
        legal = game.legal_actions()
        centre = [a for a in legal if a.kind == "play" and a.to.startswith("centre")]
        events = game.apply(rng.choice(centre or legal))
        steps.append(Step(count, tuple(events), game.model_copy(deep=True)))
    table = info("malice", list(MALICE_SEATS)).model_copy(update={"seq": len(steps) - 1})
    return table, game, steps


def table_picture(table: Any, game: Any, steps: list[Step]) -> None:
    view = compose(table, game, steps=steps, deadline=2_000_000_000, locale="en", picture=True)
    message = table_message(view)
    canvas = Canvas()
    canvas.draw.ellipse((16, 16, 56, 56), fill=(88, 101, 242))
    canvas.text("Cardtable  BOT", bold=True, size=16)
    canvas.text(message.content or "")
    for embed in message.embeds:
        top = canvas.y + 4
        canvas.y += 12
        if embed.title:
            canvas.text(embed.title, x=88, bold=True)
        if embed.description:
            canvas.text(embed.description, x=88, size=14)
        for field in embed.fields:
            canvas.text(field.name, x=88, bold=True, size=14)
            canvas.text(field.value, x=88, size=14)
        if embed.image and message.picture is not None:
            picture = Image.open(io.BytesIO(message.picture.data)).convert("RGB")
            picture.thumbnail((WIDTH - 120, 520))
            canvas.image.paste(picture, (88, canvas.y + 6))
            canvas.y += picture.height + 12
        if embed.footer:
            canvas.text(embed.footer, x=88, size=12, colour=MUTED)
        colour = tuple((embed.colour or 0x5865F2).to_bytes(3, "big"))
        canvas.draw.rectangle((72, top, 76, canvas.y), fill=colour)
        canvas.y += 10
    canvas.buttons(message.rows)
    canvas.done(OUT / "click-table.png")


def dialog_picture(table: Any, game: Any) -> None:
    mover = game.current_player
    view = compose(table, game, reader=mover, locale="en")
    assert view.hand is not None
    canvas = Canvas()
    canvas.draw.rectangle((40, 8, WIDTH - 40, 2390), fill=CARD)
    canvas.y = 24
    canvas.text(t("en", "dm.move.title", table=table.id), x=64, bold=True, size=18)
    canvas.y += 6
    canvas.text("\n".join(view.hand.texts()), x=64, size=14)
    canvas.y += 8
    canvas.text(t("en", "dm.move.pick"), x=64, bold=True, size=14)
    top = canvas.y
    for move in view.moves[:8]:
        canvas.text(move.label, x=80, size=14)
    if len(view.moves) > 8:
        canvas.text(f"… {len(view.moves) - 8} more", x=80, size=14, colour=MUTED)
    canvas.draw.rectangle((64, top - 4, WIDTH - 64, canvas.y + 2), outline=(30, 31, 34), width=2)
    canvas.y += 12
    canvas.buttons([[type("B", (), {"label": "Submit", "style": "primary"})()]], x=WIDTH - 160)
    canvas.done(OUT / "click-dialog.png")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    table, game, steps = malice_game()
    table_picture(table, game, steps)
    dialog_picture(table, game)


if __name__ == "__main__":
    main()
