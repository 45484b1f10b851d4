"""Finding text that bypasses the catalogue: an AST scan of Python sources.

A string literal (or the fixed parts of an f-string) is *user-facing* when
1. it is an argument of a call that shows text to a player (`SINKS`: `Message`, `Embed`, `Button`,
   `NotAllowed`, `Refusal`, `send_message`, ...), whatever it looks like, or
2. it reads as prose anywhere else: a word beside a space, a capital or a non-ASCII letter ("game over",
   "**{n}** chips", "Computer {n}", "Würfel"),
unless it stands where only ids go (`NON_TEXT_CALLS`, `NON_TEXT_KEYWORDS`: custom ids, button styles, dict
keys, comparisons, log calls, the catalogue's own keys, command declarations that the command translator
localizes, docstrings) or is listed in `ALLOWED` with the reason. `Refusal(key, **params)` (alias
`IllegalAction`, `NotAllowed`) and `Text(key, **params)` carry a catalogue key first (`KEY_CALLS`): a
key-shaped first argument is a key, any other literal there is text that bypassed the catalogue. Single
lowercase words outside a sink ("exchange", "centre1") are ids by their shape: message keys, action kinds,
option names.

`used_keys` finds the catalogue keys a source asks for: literal keys of `t`/`tn` calls, and f-string keys
(`f"rank.{rank.value}"`) as patterns.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SINKS = {
    "Message",
    "Embed",
    "EmbedField",
    "Button",
    "LogGroup",
    "LogLine",
    "NotAllowed",
    "Refusal",
    "IllegalAction",
    "Text",
    "Choice",
    "send",
    "send_message",
    "edit_message",
    "add_field",
    "set_footer",
    "set_author",
}
# Calls whose string arguments are ids, keys, patterns or developer messages, never shown to a player.
NON_TEXT_CALLS = {
    "t",
    "tn",
    "getattr",
    "hasattr",
    "setattr",
    "get",
    "pop",
    "setdefault",
    "startswith",
    "endswith",
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "strip",
    "lstrip",
    "rstrip",
    "removeprefix",
    "removesuffix",
    "custom_id",
    "parse_action",
    "parse_token",
    "compile",
    "match",
    "fullmatch",
    "search",
    "sub",
    "getLogger",
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "isinstance",
    "engine",
    "Literal",
    "TypeError",
    "ValueError",
    "KeyError",
    "RuntimeError",
    "AssertionError",
    "NotImplementedError",
    "command",
    "describe",
    "rename",
    "choices",
    "autocomplete",
    "Group",
    "group",
    "guild_only",
    "default_permissions",
    "strftime",
    "encode",
    "decode",
    "load_extension",
    "TypeVar",
    "click",
}
NON_TEXT_KEYWORDS = {
    "custom_id",
    "style",
    "kind",
    "key",
    "template",
    "group_name",
    "name",
    "reason",
    "type",
    "value",
    "steers",
    "where",  # bot.errors.report_error's place of a failure, for the log
}
# Calls whose first argument is a catalogue key (the rest are the message's params).
# `__init__`: a refusal of its own kind names its key to its base (`super().__init__("table.changed")`).
KEY_CALLS = {"NotAllowed", "IllegalAction", "Text", "Refusal", "said", "number_input", "note", "__init__"}
_KEY_SHAPE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_{}]+)+$")
# Literals that read as prose but are not text, each with its reason.
ALLOWED: dict[str, str] = {
    "%(asctime)s %(levelname)s %(name)s: %(message)s": "log format",
    # bot/render/pictures: Pillow's image modes and file format, not words
    "RGB": "Pillow image mode",
    "RGBA": "Pillow image mode",
    "L": "Pillow image mode (a grey mask)",
    "PNG": "Pillow file format",
    "P": "Pillow image mode (a palette image)",
    ">IIBBBBB": "a PNG header's layout for struct.pack (canvas.palette_png)",
    ">I": "a PNG chunk's length and checksum for struct.pack (canvas.palette_png)",
    # bot/render/view.py, common.py: a moment's style letter, as Discord's timestamps name them
    **{style: "a timestamp's style letter (t, T, d, D, f, F, R), never shown" for style in "tTdDfFR"},
    "A": "a capital measured for the font's cap height (sprites.card), never drawn",
    "NFC": "a Unicode normalization form (text.drawable: letters composed as the font has them)",
    "NotoSans-Regular.ttf": "the shipped font's file name (pictures.fontfile)",
    "JK": "the joker's corner index on a card face, a symbol like the rank letters beside it",
    "Seat 8 · 0123": "sample glyphs of the palette swatch (canvas.palette), never shown",
}
# A word beside whitespace ("payoff pile", "** chips"), a capital, or a non-ASCII letter reads as prose; an
# f-string's fields count as neither space nor letter, so "cardtable:{}:hand" stays an id.
_PROSE = re.compile(r"\s\W*[A-Za-z]{2}|[A-Za-z]{2}\W*\s|[A-Z]|[^\x00-\x7f]")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Literal:
    path: str
    line: int
    text: str
    why: str  # "sink Message" or "prose"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r} ({self.why})"


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _fixed_text(node: ast.AST) -> str | None:
    """The literal text of a str constant, or an f-string's fixed parts with `{}` for each field."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}" for v in node.values
        )
    return None


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Literal] = []
        self._skip: set[int] = set()  # ids of nodes that stand where only ids go
        self._sink: dict[int, str] = {}

    def _mark(self, nodes: Iterable[ast.AST], table: dict[int, str] | set[int], value: str = "") -> None:
        for node in nodes:
            for inner in ast.walk(node):
                if isinstance(table, set):
                    table.add(id(inner))
                elif id(inner) not in self._skip:
                    table.setdefault(id(inner), value)

    def visit_Module(self, node: ast.Module) -> None:
        self._docstring(node)
        self.generic_visit(node)

    def _docstring(self, node: ast.AST) -> None:
        body = getattr(node, "body", [])
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self._skip.add(id(body[0].value))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._docstring(node)
        self._mark(node.decorator_list, self._skip)
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        self._mark([a.annotation for a in arguments if a.annotation], self._skip)
        if node.returns:
            self._mark([node.returns], self._skip)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._docstring(node)
        self._mark(node.decorator_list, self._skip)
        self._mark([k.value for k in node.keywords], self._skip)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._mark([node.annotation], self._skip)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self._mark([node.value], self._skip)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        self._mark([k for k in node.keys if k is not None], self._skip)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._mark([node.slice], self._skip)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        self._mark([node.left, *node.comparators], self._skip)
        self.generic_visit(node)

    def visit_match_case(self, node: ast.match_case) -> None:
        self._mark([node.pattern], self._skip)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        ids = [k.value for k in node.keywords if k.arg in NON_TEXT_KEYWORDS]
        self._mark(ids, self._skip)
        if name in KEY_CALLS and node.args:
            key = _fixed_text(node.args[0])
            if key is not None and _KEY_SHAPE.match(key):
                self._mark([node.args[0]], self._skip)
        if name in NON_TEXT_CALLS:
            self._mark([*node.args, *(k.value for k in node.keywords)], self._skip)
        elif name in SINKS:
            self._mark([*node.args, *(k.value for k in node.keywords)], self._sink, f"sink {name}")
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._check(node)
        # The fields' own expressions may hold literals; format specs (`{n:+d}`) are not text.
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self._check(node)

    def _check(self, node: ast.AST) -> None:
        if id(node) in self._skip:
            return
        text = _fixed_text(node)
        if text is None or text in ALLOWED or not _LETTER.search(text.replace("{}", "")):
            return
        sink = self._sink.get(id(node))
        if sink:
            self.found.append(Literal(self.path, node.lineno, text, sink))
        elif _PROSE.search(text.replace("{}", "\x00")):
            self.found.append(Literal(self.path, node.lineno, text, "prose"))


def find_literals(source: str, path: str = "<source>") -> list[Literal]:
    """Every user-facing literal of one module, in source order."""
    scanner = _Scanner(path)
    scanner.visit(ast.parse(source, path))
    return sorted(set(scanner.found), key=lambda lit: (lit.line, lit.text))


def python_files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def scan(paths: Iterable[Path], root: Path) -> list[Literal]:
    found: list[Literal] = []
    for file in python_files(paths):
        found += find_literals(file.read_text(encoding="utf-8"), str(file.relative_to(root)))
    return found


def used_keys(source: str) -> tuple[set[str], list[re.Pattern[str]]]:
    """The catalogue keys a module asks for by `t(locale, key)` / `tn(locale, key, n)` or carries in a
    `NotAllowed(key)` / `Text(key)`: literal keys, and f-string keys as patterns (`f"rank.{r}"` ->
    `rank\\..+`)."""
    keys: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name in ("t", "tn") and len(node.args) >= 2:
            key = node.args[1]
        elif name in KEY_CALLS and node.args:
            key = node.args[0]
            text = _fixed_text(key)
            if text is None or not _KEY_SHAPE.match(text):
                continue
        else:
            continue
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
        elif isinstance(key, ast.JoinedStr):
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in key.values]
            patterns.append(re.compile("^" + "".join(parts) + "$"))
    return keys, patterns
