"""German and English for every player: the message catalogue, locale resolution and locale formatting.

- `t(locale, key, **params)` / `tn(locale, key, n, **params)`: a message from the catalogue
  (`bot/i18n/locales/<lang>/LC_MESSAGES/cardtable.po`).
- `resolve_locale(locale)`: a Discord locale (`de`, `en-US`, a `discord.Locale`, None) -> "de" or "en".
- `number`, `signed`, `join`, `relative`: numbers, lists and durations by Babel's locale data; `excerpt`:
  what a user typed, as much as a sentence repeats of it.
- `bot.i18n.cards`: cards in English or German notation; `bot.i18n.commands`: the slash-command translator
  (imports discord.py, so it is not imported here: the Discord-free layers use this package too).
"""

from bot.i18n.catalogue import Catalogue, catalogue, t, tn
from bot.i18n.formatting import excerpt, join, number, relative, signed
from bot.i18n.locale import DEFAULT, LANGUAGES, Lang, resolve_locale

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "Catalogue",
    "Lang",
    "catalogue",
    "excerpt",
    "join",
    "number",
    "relative",
    "resolve_locale",
    "signed",
    "t",
    "tn",
]
