"""The Activity's API as models (issue 40): every request body (`bot.web.inputs`, strict) and every answer the
bot sends, and the JSON schema of them all, which the bot serves at `/activity/api/schema.json` and the
client's build reads (client/vite.config.js: the page's field names are the schema's, checked at build time
and by tests/test_activity_api.py). One source of field names: these models.

Why a served schema and not a generated client: the client is one small script; a build step that checks its
field access against the schema keeps it plain JavaScript while no field is hand-kept on either side
(OpenAPI projects do the same with `openapi-typescript`: types from the served document, none written twice).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.web.inputs import ClickBody, TokenBody


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Config(Answer):
    client_id: str


class Token(Answer):
    access_token: str


class SeatOut(Answer):
    name: str
    to_move: bool
    computer: bool
    chips: int | None
    you: bool


class CardOut(Answer):
    card: str  # the engine's notation: what a move names
    shown: str  # as the reader writes it


class HandOut(Answer):
    cards: list[CardOut]
    html: str


class MoveOut(Answer):
    """A legal move: its sentence (`label`), its words at a glance (`short`), its token and the move count it
    was drawn for, and what the tap UI groups it by: the card it moves, from where, or the bid's amount."""

    label: str
    short: str
    token: str
    seq: int | None
    card: str | None
    shown: str | None
    from_: str | None = Field(alias="from")
    source: str | None
    amount: int | None


class ControlOut(Answer):
    label: str
    token: str
    seq: int | None
    style: str


class TableOut(Answer):
    """The table of the Activity's channel as its reader may see it (his own view if he is seated)."""

    table: int
    version: str
    seq: int
    status: str
    game: str
    locale: str
    phase: str | None
    your_turn: bool
    seated: bool
    you: str
    board: str
    log: list[str]
    seats: list[SeatOut]
    hand: HandOut | None
    moves: list[MoveOut]
    controls: list[ControlOut]
    picture: str | None
    words: dict[str, str]


class NoTable(Answer):
    table: None = None
    version: str = ""
    locale: str
    empty: str


class Clicked(Answer):
    ok: bool = True
    said: str | None


class Failed(Answer):
    error: str


ANSWERS: tuple[type[BaseModel], ...] = (Config, Token, TableOut, NoTable, Clicked, Failed)
REQUESTS: tuple[type[BaseModel], ...] = (TokenBody, ClickBody)


def schema() -> dict[str, Any]:
    """The JSON schema of every request and answer (`$defs` by model name)."""
    defs: dict[str, Any] = {}
    for model in (*REQUESTS, *ANSWERS):
        one = model.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
        defs.update(one.pop("$defs", {}))
        defs[model.__name__] = one
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Activity API", "$defs": defs}
