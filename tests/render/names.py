"""The names a real international server has, for the tests that draw every picture with them: Latin with
accents, the capital sharp s, Greek, Cyrillic, Chinese, an emoji, and two names of Discord's longest (32
characters) alike up to their last word. `DRAWN`: what a picture draws of each, whole."""

from __future__ import annotations

WOLKENSTEIN = "Maximilian-Alexander Wolkenstein"
WEBER = "Maximilian-Alexander Weber"
WEINSTEIGER = "Maximilian-Alexander Weinsteiger"  # 32 characters too, alike up to the last word
NAMES = {
    "101": WOLKENSTEIN,
    "102": WEINSTEIGER,
    "103": "José Ñúñez-Çağlar Ørsted",
    "104": "ẞtraßenbahn",
    "105": "Ωmega Σοφία",
    "106": "Дмитрий Шостакович",
    "107": "Bruce 李小龍",
    "108": "Zoë 🎲",
}
# The letters the shipped font lacks, left out of a drawn name (docs/incoming/39-fonts.md): Chinese, emoji.
LEFT_OUT = set("李小龍🎲")
DRAWN = {p: "".join(c for c in n if c not in LEFT_OUT).strip() for p, n in NAMES.items()}
