"""A table's options and house rules in the reader's words: the lobby's line of house rules, the table
section of /rules, the options /history records, the defaults /settings shows.

Everything is read from the game's options model (its fields, their defaults, which are house rules) and
its rules layout (each house rule's number in docs/rules.md section 3, `RulesLayout.house_rules`), so a
new option needs only its words in the catalogue: `option.<name>` (what it is), `option.<name>.<value>`
(a choice), `option.<name>.value` (a number, plural by it), `option.<name>.none` (no value),
`option.<name>.yes` / `.no` (a switch). A word the catalogue lacks shows as the model has it (a game
added without translations still reads).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.spec import TableOptions, house_rules
from bot.i18n import catalogue, number, t, tn
from bot.i18n.rules import RulesLayout

SESSION_OPTIONS = tuple(TableOptions.model_fields)  # timeout, pictures: every table has them


def option_name(name: str, locale: object) -> str:
    return t(locale, f"option.{name}") if f"option.{name}" in catalogue() else name


def option_label(name: str, locale: object) -> str:
    """An option as a choice offered while typing: its name in the reader's words and as typed."""
    return f"{option_name(name, locale)} ({name})"


def option_value(name: str, value: object, locale: object) -> str:
    """One option's value as the reader reads it: "40 turns", "all four sevens (32 cards)", "off"."""
    messages = catalogue()
    if isinstance(value, int | float) and not isinstance(value, bool):
        if f"option.{name}.value" in messages.plural_keys():
            return tn(locale, f"option.{name}.value", round(value))
        return number(locale, value)
    word = "none" if value is None else ("yes" if value else "no") if isinstance(value, bool) else value
    return t(locale, f"option.{name}.{word}") if f"option.{name}.{word}" in messages else str(value)


def values_of(model: type[TableOptions], options: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of the game as the table has it: the stored value, else the model's default (stored
    options hold only what was chosen)."""
    return {name: options.get(name, field.default) for name, field in model.model_fields.items()}


def _ordered(model: type[TableOptions]) -> list[str]:
    """The game's own options first, then the session's (the turn time, the pictures)."""
    own = [n for n in model.model_fields if n not in SESSION_OPTIONS]
    return own + [n for n in SESSION_OPTIONS if n in model.model_fields]


def _refs(model: type[TableOptions], layout: RulesLayout | None) -> dict[str, int]:
    """Each house rule's number in docs/rules.md section 3 (H1 is 1); 0 for one the layout does not
    number (a game without a rules layout), listed after the numbered ones."""
    given = dict(layout.house_rules) if layout is not None else {}
    return {name: given.get(name, 0) for name in house_rules(model)}


def _by_number(refs: Mapping[str, int]) -> list[str]:
    return sorted(refs, key=lambda n: (refs[n] == 0, refs[n]))


def _is_standard(model: type[TableOptions], name: str, value: object) -> bool:
    return bool(value == model.model_fields[name].default)


def chosen_house_rules(
    model: type[TableOptions], layout: RulesLayout | None, options: Mapping[str, Any], locale: object
) -> list[str]:
    """The house rules this table plays instead of the standard rule, one short phrase each ("H5 Turn cap:
    40 turns"), in the order of docs/rules.md section 3."""
    values = values_of(model, options)
    refs = _refs(model, layout)
    out = []
    for name in _by_number(refs):
        if _is_standard(model, name, values[name]):
            continue
        named, value = option_name(name, locale), option_value(name, values[name], locale)
        if refs[name]:
            out.append(t(locale, "options.house_rule_short", number=refs[name], name=named, value=value))
        else:
            out.append(f"{named}: {value}")
    return out


def house_rules_text(
    model: type[TableOptions], layout: RulesLayout | None, options: Mapping[str, Any], locale: object
) -> str | None:
    """The lobby's line naming the house rules chosen ("House rules: H1 …"), None when the table plays the
    standard rules."""
    chosen = chosen_house_rules(model, layout, options, locale)
    return t(locale, "options.house_rules", rules=" · ".join(chosen)) if chosen else None


def option_lines(
    model: type[TableOptions],
    layout: RulesLayout | None,
    options: Mapping[str, Any],
    locale: object,
    *,
    skip: tuple[str, ...] = (),
) -> list[str]:
    """Every option of a table, one line each: the plain options, then the house rules by their number,
    each marked as the standard rule or as a house rule chosen. An option without a value to show (a turn
    time nobody set) is left out, and so are those named in `skip`."""
    values = values_of(model, options)
    refs = {name: number for name, number in _refs(model, layout).items() if number}
    lines = []
    for name in _ordered(model):  # a house rule without a number in the layout reads as a plain option
        if name in refs or name in skip:
            continue
        if values[name] is None and f"option.{name}.none" not in catalogue():
            continue
        value = option_value(name, values[name], locale)
        lines.append(t(locale, "options.line", name=option_name(name, locale), value=value))
    for name in _by_number(refs):
        words = {"number": refs[name], "name": option_name(name, locale)}
        words["value"] = option_value(name, values[name], locale)
        if _is_standard(model, name, values[name]):
            lines.append(t(locale, "options.standard_rule", **words))
        else:
            lines.append(t(locale, "options.house_rule", **words))
    return lines


def rules_params(model: type[TableOptions], options: Mapping[str, Any], locale: object) -> dict[str, str]:
    """The table's options as the /rules texts name them (`{turns}`: "40 turns"), by option name."""
    return {name: option_value(name, value, locale) for name, value in values_of(model, options).items()}


@dataclass(frozen=True)
class OptionName:
    """An option's name as a param of a refusal or an answer, worded in its reader's language."""

    name: str

    def word(self, locale: object) -> str:
        return option_name(self.name, locale)


@dataclass(frozen=True)
class OptionValue:
    """An option's value as a param of a refusal or an answer, worded in its reader's language."""

    name: str
    value: object

    def word(self, locale: object) -> str:
        return option_value(self.name, self.value, locale)
