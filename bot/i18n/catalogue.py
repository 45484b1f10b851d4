"""The message catalogue: gettext `.po` files read with Babel, one per language, keyed by stable ids.

Message ids are keys (`table.not_your_turn`), not English sentences, so an English wording can change without
touching the German file and a test can compare the two files key by key. The English file holds today's
English text. Placeholders are `str.format` fields (`{player}`); a plural message is a gettext plural entry
whose `msgid_plural` is the key again, and its forms follow each language's plural rule from the file's
`Plural-Forms` header (Babel writes the right one for `en` and `de`).

The `.po` files are the sources in git; at start they are parsed (`read_po`) and compiled in memory
(`write_mo`) into `babel.support.Translations`, so no compiled `.mo` file is ever stale or committed.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n.formatting import number
from bot.i18n.locale import DEFAULT, LANGUAGES, Lang, resolve_locale

DOMAIN = "cardtable"
LOCALE_DIR = Path(__file__).parent / "locales"


def po_path(lang: str, root: Path = LOCALE_DIR) -> Path:
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str, root: Path = LOCALE_DIR) -> Catalog:
    with po_path(lang, root).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _compile(catalog: Catalog) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


class Catalogue:
    """Every language's messages. `t` and `tn` raise `KeyError` for a key the English file lacks: a typo
    in a key is a bug for the tests to find, never a raw key shown to a player. A key the German file
    lacks (or leaves empty) falls back to English, so a half-finished translation never breaks a table."""

    def __init__(self, root: Path = LOCALE_DIR) -> None:
        self.catalogs: dict[Lang, Catalog] = {lang: read_catalog(lang, root) for lang in LANGUAGES}
        english = _compile(self.catalogs[DEFAULT])
        self._translations: dict[Lang, Translations] = {DEFAULT: english}
        for lang in LANGUAGES:
            if lang != DEFAULT:
                translations = _compile(self.catalogs[lang])
                translations.add_fallback(english)
                self._translations[lang] = translations
        self._singular = {str(m.id) for m in self.catalogs[DEFAULT] if m.id and not m.pluralizable}
        self._plural = {m.id[0] for m in self.catalogs[DEFAULT] if m.id and m.pluralizable}
        # Each language's singular texts looked up once (its fallback to English included): a table message
        # asks for dozens, and gettext's fallback chain per call was a tenth of composing one.
        self._texts: dict[Lang, dict[str, str]] = {
            lang: {key: translations.gettext(key) for key in self._singular}
            for lang, translations in self._translations.items()
        }

    def ids(self) -> set[str]:
        """Every message key (singular and plural)."""
        return self._singular | self._plural

    def __contains__(self, key: object) -> bool:
        return key in self._singular or key in self._plural

    def plural_keys(self) -> set[str]:
        return set(self._plural)

    def t(self, locale: object, key: str, **params: Any) -> str:
        """The message `key` in the language of `locale`, its `{placeholders}` filled from `params`."""
        text = self._texts[resolve_locale(locale)].get(key)
        if text is None:
            raise KeyError(
                f"no message {key!r} in the catalogue"
                + (" (it is plural: use tn)" if key in self._plural else "")
            )
        return text.format(**params)

    def tn(self, locale: object, key: str, n: int, **params: Any) -> str:
        """The plural message `key` for the count `n` (German and English rules differ only in wording
        today, but the form is chosen by each language's plural rule). `{n}` is the count written in the
        language's number format (`1.000` in German, `1,000` in English)."""
        if key not in self._plural:
            raise KeyError(f"no plural message {key!r} in the catalogue")
        lang = resolve_locale(locale)
        text = self._translations[lang].ngettext(key, key, n)
        return text.format(**{"n": number(lang, n), **params})


@functools.cache
def catalogue() -> Catalogue:
    """The catalogue of the installed package, read once. It is read-only data loaded from the package's
    own files, like a module's constants, so it is shared rather than hung on the bot object."""
    return Catalogue()


def t(locale: object, key: str, **params: Any) -> str:
    return catalogue().t(locale, key, **params)


def tn(locale: object, key: str, n: int, **params: Any) -> str:
    return catalogue().tn(locale, key, n, **params)
