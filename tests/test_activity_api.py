"""The Activity's API typed end to end (bot/web/api.py, issue 40): every answer is one of its models, the
schema names each of them, and the page (client/src/main.js) reads and sends only fields those models have
(the same check the client's build makes, client/vite.config.js, here without Node)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.web import api
from bot.web.inputs import ClickBody

CLIENT = Path(__file__).parents[1] / "client" / "src" / "main.js"


def bound(source: str) -> dict[str, set[str]]:
    """The page's `@api` line: each name it binds and the fields of its models (the schema's)."""
    defs = api.schema()["$defs"]
    line = re.search(r"^// @api (.+)$", source, re.M)
    assert line is not None, "main.js binds its names to the API's models"
    out = {}
    for part in line.group(1).split(","):
        name, models = (x.strip() for x in part.split(":"))
        out[name] = {field for model in models.split() for field in defs[model]["properties"]}
    return out


def test_the_page_reads_only_fields_the_api_models_have():
    source = CLIENT.read_text(encoding="utf-8")
    fields = bound(source)
    read = re.findall(r"\b([a-z]+)\.([a-z_]+)\b", source)
    unknown = sorted({f"{n}.{f}" for n, f in read if n in fields and f not in fields[n]})
    assert not unknown, unknown
    assert {("view", "moves"), ("m", "from"), ("s", "chips")} <= set(read), "the check sees the page's reads"


def test_the_page_sends_the_click_body_the_bot_reads():
    source = CLIENT.read_text(encoding="utf-8")
    sent = re.search(r'call\("click", \{ method: "POST", body: \{ ([^}]*) \}', source)
    assert sent is not None
    keys = {part.split(":")[0].strip() for part in sent.group(1).split(",")}
    assert keys == set(api.schema()["$defs"]["ClickBody"]["properties"]) == set(ClickBody.model_fields)


def test_every_request_and_answer_is_in_the_served_schema():
    defs = api.schema()["$defs"]
    for model in (*api.REQUESTS, *api.ANSWERS):
        assert model.__name__ in defs
    assert "from" in defs["MoveOut"]["properties"]  # the page's name for a move's source, by its alias


def test_an_answer_has_exactly_its_fields():
    with pytest.raises(ValidationError):
        api.Clicked.model_validate({"ok": True, "said": None, "extra": 1})
