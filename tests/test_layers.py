"""The import graph of bot/, cogs/ and storage/ has no circle and no import running back up a layer.

Every module is parsed with `ast` (nothing is imported), and every import in it counts: at the top, inside a
function, under `if TYPE_CHECKING:`. An import names the module it loads: `from bot.render import common` is
an edge to `bot.render.common`, `from bot.games.base import POT` one to `bot.games.base` (as import-linter
and grimp count them: the packages a dotted name passes through are not edges of their own).

Run it alone with `python -m pytest tests/test_layers.py -q`; a failure names the circle or the import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "storage")

# The layers, lowest first: a module may import its own layer and the layers below it, never one above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.limits",),  # the plain limits every layer checks against (and the package `bot`, a docstring)
    ("bot.ratings",),  # the rating math (OpenSkill): pure numbers, worded by the presentation
    ("bot.games",),  # the rules: engines, their specs, the rules registry
    ("bot.i18n",),  # the words: the catalogue, card notation, locale formatting
    ("bot.render",),  # the presentation: text, pictures, commands as data, its registry
    ("bot.fit",),  # every message cut to Discord's limits (Discord-free)
    ("bot.sessions", "bot.warmup", "bot.config"),  # tables in play (no Discord); the process's settings
    ("bot.events",),  # competitions over many tables (tournaments), above the tables they open (no Discord)
    ("bot.terminal", "bot.simulate", "bot.reading"),  # the front ends without Discord; typed input read
    ("bot.ops",),  # the operator's view (the token's budget, metrics, health), without Discord
    ("bot.web",),  # the table on the web: a surface beside Discord's (pages, live feed), without Discord
    # Discord: bot.interactions holds what the cogs share (no cog imports another for it)
    ("bot.errors", "bot.input_checks", "bot.discord_out", "bot.interactions", "cogs", "bot.client"),
    ("bot.cli", "bot.__main__"),  # the command line starts any of them
)
# The store stands beside the layers: it imports none of them, and only these use it.
STORAGE = "storage"
STORAGE_USERS = (
    "bot.sessions",
    "bot.events",
    "bot.config",
    "bot.ops",
    "bot.web",
    "bot.cli",
    "bot.client",
    "bot.discord_out",
    "cogs",
)

# Known violations, each with who removes it and why it is still here. Keep this list short and named.
KNOWN: dict[tuple[str, str], str] = {}


def modules() -> dict[str, Path]:
    """Every module of the three packages by its dotted name (a package by its `__init__.py`)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _known(name: str, names: dict[str, Path]) -> str | None:
    """The module `name` loads, if it is one of ours (its longest prefix that is a module)."""
    while name and name not in names:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str, path: Path, names: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import of ours anywhere in the module."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := _known(alias.name, names)) is not None:
                    yield target, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package upwards
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in names else _known(base, names)
                if target is not None:
                    yield target, node.lineno


def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}, self-imports left out."""
    names = modules()
    edges: dict[str, dict[str, int]] = {}
    for module, path in names.items():
        out: dict[str, int] = {}
        for target, line in imports(module, path, names):
            if target != module:
                out.setdefault(target, line)
        edges[module] = out
    return edges


def layer(module: str) -> int | None:
    """The index of the module's layer (its longest matching prefix); None for the store."""
    if module == STORAGE or module.startswith(STORAGE + "."):
        return None
    if module == "bot":
        return 0
    best, index = -1, None
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, index = len(prefix), i
    if index is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return index


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def violations(edges: dict[str, dict[str, int]]) -> list[str]:
    """Every import against the layer order or the store's place, as `module:line -> module (why)`."""
    found = []
    for module, targets in sorted(edges.items()):
        for target, line in sorted(targets.items()):
            if (module, target) in KNOWN:
                continue
            here, there = layer(module), layer(target)
            if here is None and there is not None:
                found.append(f"{module}:{line} -> {target} (the store imports no layer)")
            elif there is None and not _within(module, STORAGE_USERS) and here is not None:
                found.append(f"{module}:{line} -> {target} (only {', '.join(STORAGE_USERS)} use the store)")
            elif here is not None and there is not None and there > here:
                found.append(f"{module}:{line} -> {target} (up from {LAYERS[here][0]} to {LAYERS[there][0]})")
    return found


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), known edges left out."""
    graph_ = {m: [t for t in targets if (m, t) not in KNOWN] for m, targets in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph_.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph_):
        if node not in index:
            visit(node)
    return [_circle(sorted(group), graph_) for group in groups]


def _circle(group: list[str], graph_: dict[str, list[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph_.get(node, [])):
            if nxt == start:
                return [*paths[node], start]
            if nxt in members and nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return group


# --- the checks ---------------------------------------------------------------------------------------------


def test_the_import_graph_has_no_circle():
    found = cycles(graph())
    assert not found, "circles in the import graph:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_import_runs_back_up_a_layer():
    found = violations(graph())
    assert not found, "imports against the layers (tests/test_layers.py):\n" + "\n".join(found)


def test_every_known_violation_is_still_there():
    """An entry of KNOWN that no longer happens leaves the list (so the list only ever shrinks)."""
    edges = graph()
    gone = [f"{a} -> {b} ({who})" for (a, b), who in KNOWN.items() if b not in edges.get(a, {})]
    assert not gone, "known violations that are gone, remove them from KNOWN:\n" + "\n".join(gone)


def test_the_checker_sees_local_and_type_checking_imports(tmp_path):
    """The parser counts an import inside a function and under TYPE_CHECKING, and resolves relative ones."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n"
        "def f():\n    from .c import x\n"
    )
    names = {
        "pkg": package / "__init__.py",
        "pkg.a": package / "a.py",
        "pkg.b": package / "b.py",
        "pkg.c": package / "c.py",
    }
    assert sorted(t for t, _ in imports("pkg.a", package / "a.py", names)) == ["pkg.b", "pkg.c"]
    assert cycles({"x": {"y": 1}, "y": {"z": 1}, "z": {"x": 1}}) == [["x", "y", "z", "x"]]


def test_no_cog_imports_another_cog():
    """Each cog stands alone (loaded, reloaded or left out by itself); what several cogs share lives in
    bot/interactions.py, never in one cog another imports."""
    found = [
        f"{module}:{line} -> {target}"
        for module, targets in sorted(graph().items())
        if _within(module, ("cogs",)) and module != "cogs"
        for target, line in sorted(targets.items())
        if _within(target, ("cogs",))
    ]
    assert not found, "a cog imports another cog (share it through bot/interactions.py):\n" + "\n".join(found)
