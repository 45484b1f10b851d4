"""The presentation registry and its seam: every game has its presentation, a presentation shows only its own
game, and the public log is worded from stored facts alone (the public view after a step and its events, as
JSON), in any language, without the game object."""

from __future__ import annotations

import random

import pytest
from pydantic import TypeAdapter

from bot import render
from bot.games.registry import REGISTRY
from bot.render.common import LogGroup, TableInfo
from bot.render.presentation import members
from bot.render.registry import PRESENTATIONS, registered
from tests.engines import engine
from tests.games.highcard import SPEC as HIGHCARD
from tests.games.highcard_render import PRESENTATION as HIGHCARD_PRESENTATION


def info(kind: str, players: list[str], **facts: object) -> TableInfo:
    return TableInfo(
        id=7, kind=kind, status="running", host_id=11, players=players, commitment="c" * 64, **facts
    )


def test_every_registered_game_has_its_presentation_and_no_other():
    assert PRESENTATIONS.names() == REGISTRY.names()


def test_registering_a_game_registers_both_halves_and_removes_both_again():
    with registered(HIGHCARD, HIGHCARD_PRESENTATION):
        assert "highcard" in REGISTRY and "highcard" in PRESENTATIONS
    assert "highcard" not in REGISTRY and "highcard" not in PRESENTATIONS
    with pytest.raises(ValueError, match="does not belong"), registered(HIGHCARD, PRESENTATIONS["malice"]):
        pass


def test_a_presentation_refuses_another_games_state_view_event_or_action():
    insomnia = REGISTRY["insomnia"].new_game(["11", "22"], "seam")
    malice = PRESENTATIONS["malice"]
    with pytest.raises(TypeError, match="malice cannot show a InsomniaGame"):
        malice.renderer.table(info("malice", ["11", "22"]), insomnia, None)
    with pytest.raises(TypeError):
        malice.renderer.state_group(insomnia.public_view())
    with pytest.raises(TypeError):
        malice.renderer.log_entries(
            info("malice", ["11", "22"]), insomnia.public_view(), list(insomnia.opening_events)
        )
    with pytest.raises(TypeError):
        malice.renderer.token(insomnia.legal_actions()[0])


def test_the_union_members_are_the_engines_classes():
    names = {cls.__name__ for cls in members(engine("malice").Event)}
    assert names >= {"TurnStarted", "CardPlayed", "ChipTransfer", "GameOver"}
    assert members(int | str) == (int, str)


def played(kind: str, players: list[str], seed: str, **options):
    """Every step of a whole game of random legal moves: (events, public view after them)."""
    game = engine(kind).new_game(players, seed, **options)
    steps = [(list(game.opening_events), game.public_view())]
    rng = random.Random(seed)
    while not game.is_over:
        events = game.apply(rng.choice(game.legal_actions()))
        steps.append((list(events), game.public_view()))
    return steps


@pytest.mark.parametrize(
    ("kind", "players", "options", "table_options"),
    [
        ("insomnia", ["11", "22", "ai:1"], {"chips": 6, "max_deals": 3}, {"chips": 6, "deals": 3}),
        ("malice", ["11", "22"], {"max_turns": 30}, {"turns": 30}),
    ],
)
@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_log_is_worded_again_from_stored_facts_alone(kind, players, options, table_options, locale):
    """The log lines of a whole game, worded from the live events and views, are exactly the lines worded from
    the same events and views read back from their JSON (what a store would keep)."""
    module = engine(kind)
    events_of = TypeAdapter(list[module.Event])
    table = info(kind, players, options=table_options)
    current: LogGroup | None = None
    again: LogGroup | None = None
    lines = 0
    for events, view in played(kind, players, f"facts-{kind}", **options):
        if view.is_over:
            table = table.model_copy(update={"seed": f"facts-{kind}", "status": "finished"})
        live = render.log_lines(table, view, events, current=current, locale=locale)
        stored_events = events_of.validate_json(events_of.dump_json(events))
        stored_view = type(view).model_validate_json(view.model_dump_json())
        worded = render.log_lines(table, stored_view, stored_events, current=again, locale=locale)
        assert [(ln.group.key, ln.text) for ln in worded] == [(ln.group.key, ln.text) for ln in live]
        current = live[-1].group if live else current
        again = worded[-1].group if worded else again
        lines += len(live)
    assert lines > 10
    assert f"facts-{kind}" in live[-1].text  # the last line reveals the seed, from the table facts


def test_a_games_folder_is_read_by_the_convention_and_a_missing_part_fails_as_it_loads(tmp_path, monkeypatch):
    """`folder` finds a game's parts by their module names; a text module that lacks one of the renderer's
    functions, or a constant of the wrong kind, is refused at start-up, not at a player's click."""
    from bot.games.malice.game import MaliceGame
    from bot.games.malice.models import Action, Event, MalicePublicView, MaliceView
    from bot.render.presentation import folder

    classes = (MaliceGame, MalicePublicView, MaliceView, Event, Action)
    made = folder("malice", *classes)
    assert made.commands is PRESENTATIONS["malice"].commands and made.rules is PRESENTATIONS["malice"].rules
    assert made.pictures is not None and made.moves is not None and made.figures is not None
    monkeypatch.syspath_prepend(str(tmp_path))
    for name, files in {
        "toy_short": {"text.py": "def lobby(info, *, locale='en'):\n    return None\n"},
        "toy_wrong": {
            "text.py": "from bot.render.malice.text import *  # noqa: F403\n",
            "rules.py": "RULES = 'not a layout'\n",
        },
    }.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
        for file, source in files.items():
            (tmp_path / name / file).write_text(source)
    with pytest.raises(TypeError, match="lacks table, log_entries"):
        folder("toy", *classes, package="toy_short")
    with pytest.raises(TypeError, match="RULES is not a RulesLayout"):
        folder("toy", *classes, package="toy_wrong")
