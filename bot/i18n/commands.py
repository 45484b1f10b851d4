"""Slash commands in German: a discord.py `app_commands.Translator` reading the `cmd.*` keys of the catalogue.

Keys follow the command path, so a command needs no registration of its own:
`cmd.<path>.name` / `cmd.<path>.description` for commands and groups (`cmd.insomnia.play.name`),
`cmd.<path>.opt.<option>.name` / `.description` for options, `cmd.choice.<value>` for choices (discord.py
hands a choice to the translator without its option, so a choice is keyed by its value alone).

English is the commands' own text (the translator answers None for it: Discord then shows the default);
German comes from the catalogue. A string the catalogue lacks also gets None, so a new command shows in
English until it is translated, and the catalogue test names the missing key.

discord.py asks the translator about every name, description and choice of the tree (its commands convert
plain strings to `locale_str` by default, `auto_locale_strings=True`), so the cogs need no change. The bot
registers it in `setup_hook`, before the sync: `await self.tree.set_translator(CommandTranslator())`.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.i18n.catalogue import Catalogue, catalogue
from bot.i18n.locale import DEFAULT, resolve_locale


def command_key(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> str:
    return "cmd." + command.qualified_name.replace(" ", ".")


def menu_key(menu: app_commands.ContextMenu) -> str:
    """A context menu's key (`cmd.menu.challenge`): its name has spaces and capitals, so it is keyed by the
    `key` in its extras."""
    return f"cmd.menu.{menu.extras.get('key', menu.name)}"


def option_key(command: app_commands.Command[Any, ..., Any], option: str) -> str:
    return f"{command_key(command)}.opt.{option}"


def choice_key(value: object) -> str:
    return f"cmd.choice.{value}"


def context_key(context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalogue key of the string discord.py asks about, from where it sits in the command tree."""
    data = context.data
    location = context.location
    if isinstance(data, app_commands.ContextMenu):  # "Challenge to Malice": keyed by its extras' key
        return f"{menu_key(data)}.name" if location is Where.command_name else None
    if location in (Where.command_name, Where.group_name):
        return f"{command_key(data)}.name"
    if location in (Where.command_description, Where.group_description):
        return f"{command_key(data)}.description"
    if location is Where.parameter_name:
        return f"{option_key(data.command, data.name)}.name"
    if location is Where.parameter_description:
        return f"{option_key(data.command, data.name)}.description"
    if location is Where.choice_name:
        return choice_key(data.value)
    return None


class CommandTranslator(app_commands.Translator):
    """German names, descriptions, options and choices for German Discord clients."""

    def __init__(self, messages: Catalogue | None = None) -> None:
        self.messages = messages or catalogue()

    async def translate(
        self, string: locale_str, locale: Locale, context: app_commands.TranslationContext[Any, Any]
    ) -> str | None:
        # Every English variant (and every language we do not speak) keeps the command's own text.
        if resolve_locale(locale) == DEFAULT:
            return None
        key = context_key(context)
        if key is None or key not in self.messages:
            return None
        return self.messages.t(locale, key)


def _text(locale: object, key: str, default: str) -> str:
    messages = catalogue()
    return messages.t(locale, key) if key in messages else default


def command_path(command: app_commands.Command[Any, ..., Any] | app_commands.Group, locale: object) -> str:
    """`insomnia play` / `insomnia ausspielen`: the command as a client in that language types it."""
    names: list[str] = []
    node: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
    while node is not None:
        names.insert(0, _text(locale, f"{command_key(node)}.name", node.name))
        node = node.parent
    return " ".join(names)


def usage(command: app_commands.Command[Any, ..., Any], locale: object) -> str:
    """`/malice herausfordern gegner [einsatz] [bedenkzeit] [züge]`: required options bare, optional ones in
    brackets, every name in the reader's language (what /help shows)."""
    parts = [f"/{command_path(command, locale)}"]
    for p in command.parameters:
        name = _text(locale, f"{option_key(command, p.name)}.name", p.display_name)
        parts.append(name if p.required else f"[{name}]")
    return " ".join(parts)


def help_line(command: app_commands.Command[Any, ..., Any], locale: object) -> str:
    """One line of /help: "`/hand`: Deine Hand und was du jetzt tun kannst (nur du siehst es)."."""
    description = _text(locale, f"{command_key(command)}.description", command.description)
    return f"`{usage(command, locale)}`: {description}"
