"""The command tree as Discord receives it: the real cogs loaded into the real bot class (no connection), and
the payload discord.py syncs, built with our translator."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

import cogs
from bot.cli import build_parser
from bot.client import CardBot
from bot.config import Settings
from bot.games.registry import REGISTRY
from bot.games.spec import option_choices, option_range
from bot.i18n import catalogue, t
from bot.i18n.commands import CommandTranslator, command_key, help_line, menu_key, option_key, usage
from bot.render.registry import PRESENTATIONS
from bot.terminal.flags import table_options
from storage import Store

# Discord's rule for a command or option name: lowercase, 1-32 letters, digits, "-" or "_" (any script).
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def bot(tmp_path):
    settings = Settings(_env_file=None, discord_token="x.y.z", database_path=tmp_path / "db.sqlite3")
    bot = CardBot(settings, extensions=cogs.extensions())
    bot.store = await Store.open(str(settings.database_path))  # what setup_hook does first
    for extension in bot.extension_names:
        await bot.load_extension(extension)
    await bot.tree.set_translator(CommandTranslator())
    yield bot
    await bot.close()


async def synced(bot: CardBot) -> list[dict[str, Any]]:
    """What `tree.sync()` sends: each top-level command's translated payload."""
    translator = bot.tree.translator
    assert translator is not None
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


def walk(payloads: list[dict[str, Any]], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every command, subcommand, option and choice of the payload, with its path (`insomnia play card`);
    not the context menus (a name alone: `test_the_challenge_menu_is_german_for_german_clients`)."""
    found = []
    for p in payloads:
        if not path and p.get("type") in (2, 3):  # a context menu (not an option of those types)
            continue
        here = f"{path} {p['name']}".strip()
        found.append((here, p))
        found += walk(p.get("options", []), here)
        found += [(f"{here} ={c['value']}", c) for c in p.get("choices", [])]
    return found


async def test_every_command_option_and_choice_is_german_for_german_clients(bot):
    items = walk(await synced(bot))
    assert len(items) >= 45  # the whole tree (48 today), not an empty one
    for path, item in items:
        assert item.get("name_localizations", {}).get("de"), f"/{path} has no German name"
        if "value" not in item:  # a choice has only a name
            assert item.get("description_localizations", {}).get("de"), f"/{path} has no German description"


async def test_english_clients_see_the_commands_own_text(bot):
    for path, item in walk(await synced(bot)):
        assert set(item.get("name_localizations", {})) <= {"de"}, path
        assert set(item.get("description_localizations", {})) <= {"de"}, path
    payload = {p["name"]: p for p in await synced(bot)}
    assert payload["insomnia"]["description"] == "Insomnia: dice, chips and tricks for 2 to 8 players."


async def test_a_german_client_reads_german_commands(bot):
    payload = {p["name"]: p for p in await synced(bot)}
    play = next(o for o in payload["insomnia"]["options"] if o["name"] == "play")
    assert play["name_localizations"]["de"] == "ausspielen"
    assert play["options"][0]["name_localizations"]["de"] == "karte"
    rules = payload["rules"]["options"][0]
    assert {c["value"]: c["name_localizations"]["de"] for c in rules["choices"]} == {
        "insomnia": "Insomnia (Schlaflos)",
        "malice": "Malice (Boshaftigkeit)",
    }


async def test_german_names_follow_discords_rules(bot):
    def check(options: list[dict[str, Any]], where: str) -> None:
        names = [o["name_localizations"]["de"] for o in options if "name_localizations" in o]
        assert len(names) == len(set(names)), f"two German names alike under /{where}: {names}"
        for o in options:
            if "value" in o:
                continue
            name = o["name_localizations"]["de"]
            assert NAME_RULE.match(name) and name == name.lower(), f"/{where} {name!r} breaks Discord's rule"
            assert 1 <= len(o["description_localizations"]["de"]) <= 100, f"/{where} {name}: description"
            check(o.get("options", []), f"{where} {o['name']}")

    check([p for p in await synced(bot) if p.get("type", 1) == 1], "")


async def test_the_challenge_menu_is_german_for_german_clients(bot):
    menus = [p for p in await synced(bot) if p.get("type") == 2]
    assert [(m["name"], m["name_localizations"]) for m in menus] == [
        ("Challenge to Malice", {"de": "Zu Malice herausfordern"})
    ]
    assert not menus[0].get("description") and "options" not in menus[0]


async def test_the_catalogue_english_is_the_cogs_own_text(bot):
    """A command renamed or re-described in a cog without the catalogue would leave German behind."""
    for command in bot.tree.walk_commands():
        key = command_key(command)
        assert t("en", f"{key}.name") == command.name
        assert t("en", f"{key}.description") == command.description, key
        for param in getattr(command, "parameters", []):
            assert t("en", f"{option_key(command, param.name)}.name") == param.display_name
            assert t("en", f"{option_key(command, param.name)}.description") == param.description
            for choice in param.choices:
                assert t("en", f"cmd.choice.{choice.value}") == choice.name


async def test_no_command_key_is_left_over(bot):
    used = set()
    for command in bot.tree.walk_commands():
        key = command_key(command)
        used |= {f"{key}.name", f"{key}.description"}
        for param in getattr(command, "parameters", []):
            used |= {f"{option_key(command, param.name)}.{part}" for part in ("name", "description")}
            used |= {f"cmd.choice.{c.value}" for c in param.choices}
    used |= {f"{menu_key(m)}.name" for m in bot.tree.get_commands(type=discord.AppCommandType.user)}
    unused = {k for k in catalogue().ids() if k.startswith("cmd.")} - used
    assert not unused, f"command keys no command uses: {sorted(unused)}"


async def test_commands_named_in_texts_exist_in_that_language(bot):
    """A German text that says `/insomnia neu` must name a command a German client can type."""
    paths: dict[str, set[str]] = {"en": set(), "de": set()}
    for command in bot.tree.walk_commands():
        parts, node = [], command
        while node is not None:
            parts.insert(0, node)
            node = node.parent
        for lang in paths:
            paths[lang].add(" ".join(t(lang, f"{command_key(p)}.name") for p in parts))
    mention = re.compile(r"(?<![\w/])/([a-zäöüß]+(?: [a-zäöüß]+)?)")
    for lang, catalog in catalogue().catalogs.items():
        for message in catalog:
            if not message.id:
                continue
            texts = message.string if isinstance(message.string, tuple | list) else [message.string]
            for text in texts:
                for found in mention.findall(text or ""):
                    words = found.split(" ")
                    ok = found in paths[lang] or words[0] in paths[lang]
                    assert ok, f"{lang} {message.id}: /{found} is no command"


def test_locale_enum_resolves_like_its_string():
    assert t(discord.Locale.german, "table.full") == "Der Tisch ist voll."
    assert t(discord.Locale.british_english, "table.full") == "The table is full."


async def test_help_in_german_names_every_command_as_a_german_client_types_it(bot):
    from cogs.help import help_lines, walk

    commands = walk(list(bot.tree.get_commands(type=discord.AppCommandType.chat_input)))
    assert [help_line(c, "en-US") for c in commands] == help_lines(bot.tree)  # English: today's /help
    german = {c.qualified_name: help_line(c, "de") for c in commands}
    assert german["malice challenge"] == (
        "`/malice herausfordern gegner [einsatz] [bedenkzeit] [züge] [bilder] [ablegen]`: "
        "Fordere jemanden in diesem Kanal zu Malice heraus."
    )
    assert german["hand"] == "`/hand`: Deine Hand und was du jetzt tun kannst (nur du siehst es)."
    assert german["history"].startswith("`/verlauf [spiel] [seite]`: ")
    assert t("de", "help.title") == "Cardtable-Befehle"


async def test_the_german_pages_name_german_commands_and_options(bot):
    """The German players' pages (docs/de/) teach German players what to type: every `/command option` in
    them must exist."""
    readme = _german_readme()
    usages = {
        usage(c, "de").replace("[", "").replace("]", "")
        for c in bot.tree.walk_commands()
        if isinstance(c, app_commands.Command)
    }
    typed = re.findall(r"`(/[^`]+)`", readme)
    assert len(typed) > 10
    for text in typed:
        words = text.removesuffix(":").replace("[", "").replace("]", "").split()  # optional ones bracketed
        assert any(u.split()[: len(words)] == words or set(words) <= set(u.split()) for u in usages), text


def _german_readme() -> str:
    """Every German players' page of the documentation site, one after the other."""
    pages = sorted((Path(__file__).resolve().parents[2] / "docs" / "de").glob("*.md"))
    assert len(pages) >= 10
    return "\n\n".join(page.read_text(encoding="utf-8") for page in pages)


async def _open_commands_in_german(bot: CardBot) -> dict[str, dict[str, dict[str, Any]]]:
    """`/insomnia neu` -> German option name -> its synced payload (with `game` added): what a German Discord
    client shows of each command that opens a table."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for group in await synced(bot):
        if group["name"] not in REGISTRY:
            continue
        commands = PRESENTATIONS[group["name"]].commands
        assert commands is not None
        opening = {c.name for c in commands.commands if c.role == "open"}
        for sub in group.get("options", []):
            if sub["name"] in opening:
                path = f"/{group['name_localizations']['de']} {sub['name_localizations']['de']}"
                options = sub["options"]
                out[path] = {o["name_localizations"]["de"]: {**o, "game": group["name"]} for o in options}
    return out


async def test_the_german_pages_have_one_house_rules_section_with_the_names_discord_shows(bot):
    """One section names the house rules (Tischregeln), as a German client shows their options and choices,
    each rule with its number in docs/rules.md section 3, and every house rule of every game."""
    readme = _german_readme()
    assert readme.count("**Tischregeln.**") == 1 and "Wählbare Regeln" not in readme
    section = readme.split("**Tischregeln.**", 1)[1].split("\n\n**", 1)[0]
    commands = await _open_commands_in_german(bot)
    rows = re.findall(r"^\| `(/[^`]+)` \| `([^`]+)` \(H(\d+)\) \| ([^|]+) \|", section, re.MULTILINE)
    named = set()
    for path, option, number, values in rows:
        assert path in commands, f"{path} opens no table"
        assert option in commands[path], f"{path} has no option {option!r} (it has {sorted(commands[path])})"
        payload = commands[path][option]
        game, name = payload["game"], payload["name"]
        layout = PRESENTATIONS[game].rules
        assert layout is not None and dict(layout.house_rules).get(name) == int(number), (option, number)
        if payload.get("choices"):
            shown = [c["name_localizations"]["de"] for c in payload["choices"]]  # the standard one first
            assert re.findall(r"„([^“]+)“", values) == shown, option
        else:
            low, high = option_range(REGISTRY[game].options, name)
            default = REGISTRY[game].options.model_fields[name].default
            assert values.strip() == f"{default} ({low} bis {high})", option
        named.add((game, name))
    every = {(g, name) for g in REGISTRY.names() for name, _ in (PRESENTATIONS[g].rules.house_rules or ())}
    assert named == every, f"house rules missing from the German pages: {sorted(every - named)}"
    # The options each game's paragraph lists ("Optionen: `chips` ..., `runden` ... und `bedenkzeit` ...").
    for path, paragraph in (("/insomnia neu", "**Insomnia.**"), ("/malice herausfordern", "**Malice.**")):
        text = readme.split(paragraph, 1)[1].split("\n\n", 1)[0]
        listed = re.findall(r"`([^`/]+)`", text.split("Optionen: ", 1)[1].split(".", 1)[0])
        assert listed and set(listed) <= set(commands[path]), (path, listed)


def test_the_german_pages_name_only_command_line_options_that_exist():
    """The terminal's and the simulator's flags and `--option NAME=VALUE`s on the German pages are real:
    read from `cardtable-bot play`'s own parser and the games' options models."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    play = commands.choices["play"]
    flags = re.findall(r"`--(\w+) ([\w=]+)`", _german_readme())
    assert len(flags) >= 6
    for flag, value in flags:
        if flag == "option":
            flag, value = value.split("=", 1)
            games = [spec for spec in REGISTRY if flag in table_options(spec)]
            words = {w for spec in games for w in option_choices(spec.options, flag)}
            assert games and (value in words if words else value.isdigit()), (flag, value)
            continue
        action = play._option_string_actions.get(f"--{flag}")
        assert action is not None, f"--{flag} is no option of cardtable-bot play"
        assert value in action.choices if action.choices else action.type is int and value.isdigit(), flag
