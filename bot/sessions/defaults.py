"""A server's defaults for new tables, checked by the game's own options model: the one place where a table
option is validated, whether it comes from a command, a server setting, `simulate` or `play`.

Pure functions over the registry: the store keeps the checked values as JSON, the lobby merges them under
what the opening command chose.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal, get_origin

from pydantic import JsonValue, ValidationError

from bot.games.refusal import said
from bot.games.spec import GameSpec, option_choices, option_range
from bot.render.options import OptionName
from bot.sessions.errors import GameName, NotAllowed

log = logging.getLogger(__name__)


def game_name(spec: GameSpec) -> GameName:
    return GameName(spec.name, spec.title)


def option_names(spec: GameSpec) -> tuple[str, ...]:
    """Every option a table of this game takes, in its model's order."""
    return tuple(spec.options.model_fields)


def allowed(spec: GameSpec, name: str) -> tuple[str, dict[str, Any]]:
    """What an option takes, as a nested text: a range of whole numbers, one of its choices, yes or no."""
    field = spec.options.model_fields[name]
    choices = option_choices(spec.options, name)
    if choices:
        return said("settings.allowed.choices", choices=", ".join(choices))
    if field.annotation in (bool, bool | None):
        return said("settings.allowed.switch")
    low, high = option_range(spec.options, name)
    return said("settings.allowed.range", low=low, high=high)


def check_default(spec: GameSpec, name: str, value: str | None) -> JsonValue:
    """A typed default for `name`, as the options model takes it ("40" is 40, "Required" is "required"),
    or a refusal naming what the option takes. None stays None: back to the game's own default."""
    if name not in spec.options.model_fields:
        raise NotAllowed(
            "settings.defaults.unknown_option",
            game=game_name(spec),
            option=name,
            options=", ".join(option_names(spec)),
        )
    if value is None:
        return None
    typed: str = value.strip()
    if get_origin(spec.options.model_fields[name].annotation) is Literal:
        typed = typed.lower()
    try:
        checked = spec.make_options({name: typed})
    except ValidationError:
        raise NotAllowed(
            "settings.defaults.bad_value",
            value=typed,
            name=OptionName(name),
            allowed=allowed(spec, name),
        ) from None
    result: JsonValue = checked.model_dump(mode="json")[name]
    return result


def usable_defaults(spec: GameSpec, stored: Mapping[str, Any]) -> dict[str, Any]:
    """The server's stored defaults the game still takes: a default the game's limits no longer allow (a
    newer version changed them) is left out and logged, never refused at every opening."""
    usable = {}
    for name, value in stored.items():
        try:
            spec.make_options({name: value})
        except ValidationError:
            log.warning("the server default %s=%r no longer fits %s: not applied", name, value, spec.name)
            continue
        usable[name] = value
    return usable


def table_options(spec: GameSpec, stored: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """A new table's options: what the opening command chose, over the server's defaults, checked together
    by the game's model. Only chosen options are kept (the model's defaults need not be stored)."""
    chosen = {**usable_defaults(spec, stored), **{k: v for k, v in given.items() if v is not None}}
    try:
        model = spec.make_options(chosen)
    except ValidationError as exc:
        wrong = exc.errors()[0]
        raise NotAllowed("errors.bad_value", value=repr(wrong.get("input"))) from None
    dumped = model.model_dump(mode="json")
    return {name: dumped[name] for name in chosen}
