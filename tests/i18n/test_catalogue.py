"""The catalogue is complete in both languages, and no text bypasses it.

The completeness checks run on the real .po files. The "nothing outside the catalogue" and "no unused key"
checks run the AST scanner of tests/i18n/literal_scan.py over every module that shows text to a player (the
renderers, the sessions, the cogs, the error sentences). The scanner itself is tested on small sources below.
"""

from __future__ import annotations

import fnmatch
import string
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.i18n import LANGUAGES, Catalogue, catalogue, join, number, relative, resolve_locale, signed, t, tn
from bot.i18n.catalogue import LOCALE_DIR, po_path, read_catalog
from tests.i18n.literal_scan import find_literals, scan, used_keys

ROOT = Path(__file__).resolve().parents[2]
# Keys whose German text is the English one on purpose (names, symbols, words German shares).
SAME_IN_GERMAN = {
    "cmd.insomnia.name",
    "cmd.malice.name",
    "cmd.hand.name",
    "cmd.insomnia.new.opt.chips.name",
    "game.insomnia",
    "game.malice",
    "common.computer",
    "common.footer.seed",
    "insomnia.field.chips",
    "insomnia.table.player",
    "malice.short.side",
    "malice.button.move.hand",
    "log.seed",
    "cmd.choice.de",
    "common.seconds",
    "terminal.word.hand",
    "cmd.settings.threads.name",
    "cmd.settings.threads.opt.threads.name",  # Discord's German says Threads
    # a table's options as lines and house rules by their numbers in docs/rules.md: punctuation around
    # worded params ("• {name}: {value}", "H{number} {name}: {value}")
    "options.line",
    "options.house_rule_short",
    "log.rating.one",
    "ledger.rating_line",
    "stats.h2h.game",  # punctuation around worded params
    # tournaments: words German shares, punctuation around a param, the tie-breaks' own abbreviations
    "cmd.moderation.name",
    "cmd.tournament.create.opt.format.name",
    "tournament.plays_in",
    "tournament.picture.tiebreaks.swiss",
}


# Modules the registry work replaces (bot/sessions/kinds.py moves into the game folders, one generic cog
# replaces cogs/insomnia.py and cogs/malice.py): their texts stay until that merge, which words them with
# these keys (bot/i18n/CONVERSION.md says which); both lists must then be emptied, or the tests fail.
AWAITING_MERGE_FILES: set[str] = set()
# Folders whose texts are not in the catalogue yet, left out of the scan (none: the pictures were the last).
NOT_YET_CONVERTED: tuple[str, ...] = ()
# English by design, left out of the scan: a game's slash commands as data (the source text Discord shows
# through the cmd.* translations) and its simulator figures (an English-only tool).
ENGLISH_SOURCES = ("commands.py", "figures.py")
AWAITING_MERGE_KEYS: set[str] = set()


def messages(lang: str) -> dict[str, tuple[str, ...]]:
    """key -> its text(s) (one, or every plural form) in that language's .po file."""
    out = {}
    for m in catalogue().catalogs[lang]:  # type: ignore[index]
        if m.id:
            key = m.id[0] if m.pluralizable else m.id
            out[key] = tuple(m.string) if m.pluralizable else (m.string,)
    return out


def placeholders(texts: tuple[str, ...]) -> set[str]:
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field is not None}


# ---------------------------------------------------------------- the catalogue itself


def test_every_key_in_both_languages_and_none_empty():
    english, german = messages("en"), messages("de")
    assert len(english) > 400
    assert set(english) == set(german), set(english) ^ set(german)
    for lang, texts in (("en", english), ("de", german)):
        empty = [key for key, forms in texts.items() if not all(f.strip() for f in forms)]
        assert not empty, f"{lang}: empty translations {empty}"


def test_placeholders_are_the_same_in_both_languages():
    english, german = messages("en"), messages("de")
    for key, forms in english.items():
        assert placeholders(forms) == placeholders(german[key]), key


def test_every_message_formats_with_its_placeholders():
    """A stray brace or a positional `{}` would raise when the bot formats the message."""
    for lang in LANGUAGES:
        for key, forms in messages(lang).items():
            params = dict.fromkeys(placeholders(forms), "X")
            for text in forms:
                text.format(**params)  # raises on a malformed field
                assert "{}" not in text, f"{lang} {key}: a positional field"


def test_plural_forms_complete_by_each_languages_rule():
    for lang in LANGUAGES:
        parsed = catalogue().catalogs[lang]  # type: ignore[index]
        expected = Catalog(locale=lang)
        assert parsed.plural_forms == expected.plural_forms  # Babel's rule for the language
        for m in parsed:
            if m.id and m.pluralizable:
                assert len(m.string) == expected.num_plurals, f"{lang} {m.id[0]}"
                assert m.id[1] == m.id[0], "msgid_plural repeats the key"


def test_no_fuzzy_or_obsolete_entries():
    for lang in LANGUAGES:
        parsed = read_catalog(lang)
        assert not parsed.obsolete, lang
        assert not [m.id for m in parsed if m.id and m.fuzzy], lang


def test_german_is_translated_not_copied():
    english, german = messages("en"), messages("de")
    copied = {k for k in english if english[k] == german[k]} - SAME_IN_GERMAN
    assert not copied, f"German text identical to English: {sorted(copied)}"


def test_the_po_files_ship_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["bot.i18n"]
    for lang in LANGUAGES:
        relative_path = po_path(lang).relative_to(LOCALE_DIR.parent).as_posix()
        assert any(fnmatch.fnmatch(relative_path, g) for g in globs), relative_path
    assert "Babel" in " ".join(config["project"]["dependencies"])


# ---------------------------------------------------------------- t, tn, locales and formats


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("de_CH", "de"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_resolve_to_our_two_languages(locale, lang):
    assert resolve_locale(locale) == lang


def test_t_fills_placeholders_in_the_players_language():
    assert t("de", "table.not_your_turn", player="<@1>") == "Du bist nicht am Zug: <@1> ist dran."
    assert t("en-US", "table.not_your_turn", player="<@1>") == "It is not your turn: <@1> is to play."
    assert t("ja", "table.full") == "The table is full."


def test_tn_picks_the_plural_form_and_writes_the_number_in_the_language():
    assert [tn("de", "count.chip", n) for n in (0, 1, 2)] == ["0 Chips", "1 Chip", "2 Chips"]
    assert [tn("en", "count.chip", n) for n in (0, 1, 2)] == ["0 chips", "1 chip", "2 chips"]
    assert tn("de", "count.chip", 1500) == "1.500 Chips"
    assert tn("en-GB", "count.chip", 1500) == "1,500 chips"
    assert tn("de", "rank.13", 2) == "Könige" and tn("de", "rank.13", 1) == "König"


def test_unknown_keys_fail_loudly():
    with pytest.raises(KeyError):
        t("de", "table.no_such_key")
    with pytest.raises(KeyError, match="plural"):
        t("de", "count.chip")
    with pytest.raises(KeyError):
        tn("de", "table.full", 2)


def test_a_missing_german_text_falls_back_to_english(tmp_path):
    for lang in LANGUAGES:
        target = po_path(lang, tmp_path)
        target.parent.mkdir(parents=True)
        text = po_path(lang).read_text(encoding="utf-8")
        if lang == "de":
            text = text.replace('msgstr "Der Tisch ist voll."', 'msgstr ""')
        target.write_text(text, encoding="utf-8")
    partial = Catalogue(tmp_path)
    assert partial.t("de", "table.full") == "The table is full."
    assert partial.t("de", "table.joined") == "Du hast dich an den Tisch gesetzt."


def test_numbers_lists_and_durations_follow_the_language():
    assert number("de", 1234.5) == "1.234,5" and number("en", 1234.5) == "1,234.5"
    assert signed("de", 1500) == "+1.500" and signed("en", -3) == "-3" and signed("en", 0) == "0"
    assert join("de", ["A", "B", "C"]) == "A, B und C"
    assert join("en", ["A", "B", "C"]) == "A, B, and C"
    assert join("de", ["A", "B"], style="or") == "A oder B"
    assert relative("de", 120) == "in 2 Minuten"
    assert relative("en", -30) == "30 seconds ago"
    assert relative("de", 90, direction=False) == "2 Minuten"


# ---------------------------------------------------------------- the scanner, on sample sources

SAMPLE = '''
"""A module docstring is no text."""
from bot.render.common import Button, Message
from bot.sessions import NotAllowed

PATTERNS = {"pair": "one pair", "sequence": "a sequence"}
LABEL = "Stop re-throwing"


def refuse(player):
    """Neither is a docstring."""
    raise NotAllowed(f"It is not your turn: {player} is to play.")


def ok(table_id, kind, locale):
    log.info("table %s resumed with %d seats", table_id, 3)
    if kind == "end_turn" or kind in ("Pass", "pass"):
        return t(locale, "table.not_your_turn", player="x")
    return custom_id(table_id, "x-QH"), f"cardtable:{table_id}:hand", {"kind": "pass"}


def message(n):
    join = Button(label="Join", custom_id="cardtable:1:join", style="success")
    return Message(content="free", rows=[[join]])


def lines(n):
    return f"{n:+d}" + f"**{n}** chips" + "—" + " · " + f"{'Würfel'}"
'''


def test_scanner_finds_each_kind_of_text_left_in_the_source():
    found = {(lit.text, lit.why) for lit in find_literals(SAMPLE)}
    assert found == {
        ("one pair", "prose"),  # a dict value
        ("a sequence", "prose"),
        ("Stop re-throwing", "prose"),  # a constant
        ("It is not your turn: {} is to play.", "sink NotAllowed"),
        ("free", "sink Message"),  # a single word, but shown as is
        ("Join", "sink Button"),
        ("**{}** chips", "prose"),  # an f-string's fixed parts
        ("Würfel", "prose"),  # a literal inside an f-string field
    }


def test_scanner_leaves_ids_keys_and_formats_alone():
    texts = {lit.text for lit in find_literals(SAMPLE)}
    ids = ["pair", "end_turn", "Pass", "table.not_your_turn", "x-QH", "cardtable:{}:hand", "pass"]
    for not_text in [*ids, "table %s resumed with %d seats", "cardtable:1:join", "success", "+d", "—"]:
        assert not_text not in texts


def test_scanner_reports_nothing_for_a_converted_module():
    converted = """
def lobby(info, locale):
    return Message(
        content=t(locale, "insomnia.lobby.opened", host=name(info.host)),
        rows=[[Button(label=t(locale, "lobby.button.join"), custom_id=custom_id(info.id, "join"))]],
    )
"""
    assert find_literals(converted) == []


def test_used_keys_reads_literal_and_pattern_keys():
    keys, patterns = used_keys('t(lang, "table.full")\ntn(lang, f"rank.{r.value}", 2)\nother("x.y")')
    assert keys == {"table.full"}
    assert [p.pattern for p in patterns] == [r"^rank\..+$"]
    assert patterns[0].match("rank.13") and not patterns[0].match("suit.1")


# ---------------------------------------------------------------- the real sources

TEXT_SOURCES = [
    ROOT / "bot" / "render",
    ROOT / "cogs",
    # The engines' refusals are keys (tests/games/test_refusals.py checks each names one in both languages).
    *sorted((ROOT / "bot" / "games").glob("*/game.py")),
    ROOT / "bot" / "games" / "refusal.py",
    ROOT / "bot" / "sessions",
    ROOT / "bot" / "events",
    ROOT / "bot" / "errors.py",
    ROOT / "bot" / "input_checks.py",
    ROOT / "bot" / "fit.py",
    ROOT / "bot" / "terminal" / "session.py",
    ROOT / "bot" / "terminal" / "moves.py",
    ROOT / "bot" / "terminal" / "text.py",
]
CATALOGUE_USERS = [ROOT / "bot", ROOT / "cogs"]


def _used() -> tuple[set[str], list]:
    keys: set[str] = set()
    patterns: list = []
    for path in CATALOGUE_USERS:
        for file in sorted(path.rglob("*.py")):
            k, p = used_keys(file.read_text(encoding="utf-8"))
            keys |= k
            patterns += p
    return keys, patterns


def _unused(prefixes: tuple[str, ...] | None = None) -> list[str]:
    keys, patterns = _used()
    # The command translator derives cmd.* keys from the command tree; tests/i18n/test_commands.py checks
    # that each of them names a real command, option or choice.
    candidates = [k for k in catalogue().ids() if not k.startswith("cmd.")]
    if prefixes is not None:
        candidates = [k for k in candidates if k.startswith(prefixes)]
    return sorted(k for k in candidates if k not in keys and not any(p.match(k) for p in patterns))


def test_keys_of_the_parts_already_converted_are_all_used():
    """Cards and /rules read the catalogue today (bot/i18n/cards.py, bot/i18n/rules.py)."""
    assert _unused(("card.", "rank.", "suit.", "rules.")) == []


def test_every_key_used_by_the_code_exists():
    keys, _ = _used()
    assert keys <= catalogue().ids(), keys - catalogue().ids()


def test_no_unused_key():
    assert _unused() == sorted(AWAITING_MERGE_KEYS)


@pytest.mark.parametrize("source", TEXT_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_text_left_outside_the_catalogue(source):
    found = [
        lit
        for lit in scan([source], ROOT)
        if lit.path not in AWAITING_MERGE_FILES
        and not lit.path.startswith(NOT_YET_CONVERTED)
        and not (lit.path.startswith("bot/render/") and lit.path.endswith(ENGLISH_SOURCES))
    ]
    assert not found, "texts outside the catalogue:\n" + "\n".join(map(str, found))


def test_the_modules_awaiting_the_merge_still_hold_their_texts():
    """The day one of them is converted or removed, it leaves the list (and its keys are used)."""
    for path in sorted(AWAITING_MERGE_FILES):
        assert (ROOT / path).exists() and scan([ROOT / path], ROOT), path


def test_the_catalogue_package_itself_shows_no_literal_text():
    """bot/i18n writes every word through the catalogue; its notation tables are listed as not text."""
    found = [lit for lit in scan([ROOT / "bot" / "i18n"], ROOT) if "cards.py" not in lit.path]
    assert [lit.text for lit in found] == ["LC_MESSAGES"]  # the gettext folder name
