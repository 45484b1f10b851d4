"""One composition root: every part is built with what it needs in its constructor, and no part is wired by
assigning into another afterwards (docs/design.md, "The composition root").

A part is an object of a plain class of `bot/` or `cogs/` (a service: the session manager and its parts,
the presenter, the runner, the web server, the bot itself); a record (a dataclass, a pydantic model, a named
tuple) is data, built and changed by its owner. The test parses every module with `ast` and fails on an
assignment into an attribute of a part that is not the assigning object's own:

- `self.a.b = ...`: into an object the part holds (`self.lobbies.threads = ...`);
- `x.a = ...` where `x` is a parameter annotated with a part's class, or a local bound to a call of one
  (`server = WebServer(...); server.activity = ...`, `bot.ops = ...`), at any depth
  (`sessions.presenter.drawing.links = ...`).

`self.a = ...` in any method of the part itself is its own state, and is allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py"))]
RECORD_BASES = {
    "BaseModel",
    "NamedTuple",
    "TypedDict",
    "Enum",
    "StrEnum",
    "IntEnum",
    "Exception",
    "Protocol",
    "RuntimeError",
    "ValueError",
    "Message",
    "Embed",
}
HELD = "<held by the part>"
# Wiring still to remove, each with its owner (as tests/test_layers.py's KNOWN): none is left.
ALLOWED: dict[str, str] = {}


def _bases(node: ast.ClassDef) -> set[str]:
    return {ast.unparse(b).split(".")[-1].split("[")[0] for b in node.bases}


def parts() -> set[str]:
    """The plain classes of bot/ and cogs/: neither a record nor built on one (a game's state is a
    pydantic model through its base class)."""
    classes = [
        node
        for path in SOURCES
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.ClassDef)
    ]
    records = set(RECORD_BASES)
    records |= {c.name for c in classes if any("dataclass" in ast.unparse(d) for d in c.decorator_list)}
    while True:
        more = {c.name for c in classes if c.name not in records and _bases(c) & records}
        if not more:
            return {c.name for c in classes} - records
        records |= more


def _annotation(node: ast.expr | None) -> str | None:
    if node is None:
        return None
    text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ast.unparse(node)
    return text.split("|")[0].strip().split(".")[-1]


def _root(target: ast.expr) -> tuple[str | None, int]:
    """The name at the bottom of an attribute chain, and how many attributes deep the target is."""
    depth = 0
    while isinstance(target, ast.Attribute | ast.Subscript):
        depth += isinstance(target, ast.Attribute)
        target = target.value
    return (target.id if isinstance(target, ast.Name) else None), depth


def wiring(path: Path, known: set[str], root_dir: Path = ROOT) -> list[str]:
    found: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(), str(path))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        typed = {a.arg: _annotation(a.annotation) for a in [*function.args.args, *function.args.kwonlyargs]}
        for node in ast.walk(function):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                if not isinstance(target, ast.Name):
                    continue
                if isinstance(node.value, ast.Call):  # a part built here
                    typed[target.id] = ast.unparse(node.value.func).split(".")[-1]
                elif isinstance(node.value, ast.Attribute) and _root(node.value)[0] == "self":
                    typed[target.id] = HELD  # another name for what the part holds
        for node in ast.walk(function):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = [t for t in node.targets for t in (t.elts if isinstance(t, ast.Tuple) else [t])]
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if not isinstance(target, ast.Attribute):
                    continue
                root, depth = _root(target)
                into_held = root == "self" and depth >= 2
                into_part = root not in (None, "self") and typed.get(root) in {*known, HELD}
                if into_held or into_part:
                    found.append(
                        (
                            target.lineno,
                            f"{path.relative_to(root_dir)}:{target.lineno}: {ast.unparse(target)}",
                        )
                    )
    return [where for _, where in sorted(found)]


def test_no_part_is_wired_by_assigning_into_it_after_construction():
    known = parts()
    found = [w for path in SOURCES for w in wiring(path, known)]
    assert [w for w in found if w.split(": ", 1)[1] not in ALLOWED] == []


def test_the_scan_finds_wiring_by_assignment(tmp_path):
    # The shapes the composition root replaced, each found.
    module = tmp_path / "wired.py"
    module.write_text(
        "class Server:\n    pass\n"
        "class Manager:\n    def __init__(self, lobbies):\n        self.lobbies = lobbies\n"
        "        self.lobbies.threads = 1\n"
        "def start(sessions: 'Manager') -> None:\n    server = Server()\n    server.activity = 2\n"
        "    sessions.presenter.drawing.links = server\n"
    )
    found = [w.split(": ", 1)[1] for w in wiring(module, {"Server", "Manager"}, tmp_path)]
    assert found == ["self.lobbies.threads", "server.activity", "sessions.presenter.drawing.links"]
