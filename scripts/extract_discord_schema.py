"""Extract from Discord's OpenAPI description the request-body schemas of the routes the fake Discord serves.

    python scripts/extract_discord_schema.py [--openapi ../shared/discord-api/openapi.json]

Writes tests/e2e/discord_api/request_schemas.json (and copies Discord's MIT LICENSE beside it), so the
tests validate every body the bot sends against Discord's own schemas without reading the spec at run time (a
fresh clone has no ../shared). Re-run it when the fake gains a route or the spec changes; a test fails when a
route of the fake that can take a body is missing from the extract.

The extract is Discord's text, unchanged: every route's `application/json` request schema (multipart bodies
carry the same object in `payload_json`) and every component schema it reaches through `$ref`. What the fake
adds on top (no unknown fields; integer ids accepted where Discord types a snowflake string) is done when it
loads the extract, in tests/e2e/fake_discord.py, so the extract stays a faithful copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the main checkout; a worktree (wt/<name>) has it one level further up.
SPEC_CANDIDATES = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
DEFAULT_SPEC = next(
    (d / "discord-api" / "openapi.json" for d in SPEC_CANDIDATES if (d / "discord-api").is_dir()),
    SPEC_CANDIDATES[0] / "discord-api" / "openapi.json",
)
OUT_DIR = ROOT / "tests" / "e2e" / "discord_api"
BODY_METHODS = {"POST", "PUT", "PATCH"}
REF = re.compile(r"#/components/schemas/([A-Za-z0-9_]+)")


def fake_routes() -> list[str]:
    """The route templates of the fake that can carry a body ("POST /channels/{channel_id}/messages")."""
    sys.path.insert(0, str(ROOT))
    from tests.e2e.fake_discord import FakeDiscord

    return sorted(r for r in FakeDiscord.route_templates() if r.split(" ", 1)[0] in BODY_METHODS)


def shape(path: str) -> str:
    # The fake and the spec name path parameters differently ({token}, {interaction_token}): match by shape.
    return re.sub(r"\{[^}]+\}", "{}", path)


def extract(spec: dict[str, Any], routes: list[str]) -> dict[str, Any]:
    by_shape = {shape(p): p for p in spec["paths"]}
    schemas = spec["components"]["schemas"]
    out_routes: dict[str, Any] = {}
    todo: list[str] = []
    for route in routes:
        method, path = route.split(" ", 1)
        spec_path = by_shape.get(shape(path))
        if spec_path is None:
            raise SystemExit(f"{route}: no path of that shape in the spec")
        operation = spec["paths"][spec_path].get(method.lower())
        if operation is None:
            raise SystemExit(f"{route}: the spec has no {method} on {spec_path}")
        body = operation.get("requestBody")
        schema = body["content"]["application/json"]["schema"] if body else None
        out_routes[route] = {
            "spec": f"{method} {spec_path}",
            "operationId": operation.get("operationId"),
            "required": bool(body and body.get("required")),
            "schema": schema,
        }
        todo += REF.findall(json.dumps(schema))
    needed: dict[str, Any] = {}
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed[name] = schemas[name]
        todo += REF.findall(json.dumps(schemas[name]))
    return {"routes": out_routes, "components": {"schemas": dict(sorted(needed.items()))}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openapi", type=Path, default=DEFAULT_SPEC)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args()
    raw = args.openapi.read_bytes()
    spec = json.loads(raw)
    document = {
        "source": {
            "description": "Request-body schemas extracted by scripts/extract_discord_schema.py from "
            "Discord's OpenAPI description (the discord/discord-api-spec repository, MIT license: see "
            "LICENSE beside this file). Generated: edit the script, not this file.",
            "title": spec["info"]["title"],
            "openapi": spec["openapi"],
            "api_version": spec["info"]["version"],
            "sha256": hashlib.sha256(raw).hexdigest(),
        },
        **extract(spec, fake_routes()),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "request_schemas.json").write_text(json.dumps(document, indent=1, sort_keys=False) + "\n")
    shutil.copyfile(args.openapi.parent / "LICENSE", args.out / "LICENSE")
    routes = document["routes"]
    print(
        f"{len(routes)} routes ({sum(r['schema'] is not None for r in routes.values())} with a body), "
        f"{len(document['components']['schemas'])} component schemas -> {args.out}"
    )


if __name__ == "__main__":
    main()
