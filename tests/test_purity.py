"""The rules engines must stay pure: importing them (the game registry included) pulls in no presentation,
no translation, no Pillow, no Discord and no database."""

import subprocess
import sys

# What a rules module may never load: the presentation and the words (bot.render, bot.i18n, Pillow), Discord,
# the database drivers and the layers above (storage, cogs).
FORBIDDEN = (
    "bot.render",
    "bot.i18n",
    "bot.rules_text",
    "PIL",
    "discord",
    "aiosqlite",
    "asyncpg",
    "sqlite3",
    "storage",
    "cogs",
)


def loaded_after(code: str) -> list[str]:
    """The forbidden modules in a fresh interpreter's sys.modules after running `code`."""
    probe = (
        f"{code}\n"
        "import sys\n"
        f"forbidden = {FORBIDDEN!r}\n"
        "bad = sorted(n for n in sys.modules if any(n == f or n.startswith(f + '.') for f in forbidden))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [name for name in out.stdout.strip().split(",") if name]


def test_importing_the_games_and_their_registry_loads_no_presentation_no_discord_and_no_database():
    assert loaded_after("import bot.games, bot.games.registry") == []


def test_no_module_of_the_engines_loads_them_either():
    code = (
        "import importlib, pkgutil, bot.games\n"
        "for m in pkgutil.walk_packages(bot.games.__path__, 'bot.games.'):\n"
        "    importlib.import_module(m.name)\n"
        "from bot.games.registry import REGISTRY\n"
        "for spec in REGISTRY:\n"
        "    game = spec.new_game([f'p{i}' for i in range(spec.min_players)], 'purity')\n"
        "    game.apply(spec.choose_action(game, game.current_player, 'purity'))\n"
    )
    assert loaded_after(code) == []


def test_the_probe_sees_a_forbidden_module():
    """The check itself works: the presentation registry does load them."""
    assert "bot.render" in loaded_after("import bot.render.registry")


def test_a_refusal_loads_no_words_either():
    """The engines refuse with `bot.games.refusal.Refusal`, a key and facts: raising one (and logging it)
    loads no catalogue; it is worded above the rules."""
    code = (
        "from bot.games.refusal import Refusal\n"
        "from bot.games.registry import REGISTRY\n"
        "for spec in REGISTRY:\n"
        "    game = spec.new_game([f'p{i}' for i in range(spec.min_players)], 'purity')\n"
        "    try:\n"
        "        game.apply({'kind': 'no_such_action'})\n"
        "    except Refusal as refusal:\n"
        "        assert str(refusal) == 'table.not_an_action', refusal\n"
    )
    assert loaded_after(code) == []
