"""The rules engines must stay pure: importing them pulls in neither Discord nor the database."""

import subprocess
import sys


def test_importing_the_engines_imports_no_discord_and_no_database():
    code = (
        "import sys, bot.games, bot.games.cards, bot.games.base\n"
        "import importlib, pkgutil\n"
        "for m in pkgutil.iter_modules(bot.games.__path__):\n"
        "    importlib.import_module('bot.games.' + m.name)\n"
        "roots = ('discord', 'aiosqlite', 'sqlite3', 'storage', 'cogs')\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in roots)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"bot.games imported {out.stdout.strip()}"


def test_the_refusal_type_imports_no_words():
    """Every engine raises `bot.games.refusal.Refusal`: it is worded above the rules, never by loading the
    catalogue from the rules layer."""
    code = (
        "import sys, bot.games.refusal, bot.games.base\n"
        "words = ('bot.i18n', 'bot.render', 'babel')\n"
        "print(','.join(sorted(n for n in sys.modules if n.startswith(words))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"the refusal type imported {out.stdout.strip()}"
