"""What a hostile or careless client sends the web server (issue 38), as hypothesis strategies, and a raw
HTTP client that sends it byte for byte (no library in between to tidy it up).

- `text()`: digits of every script ("²", "١", "𝟙", "Ⅻ"), letters of every script, signs and spaces, huge
  numbers (past 2**63 and past Python's 4,300-digit limit), empty and 1 MB values, path tricks;
- `json_value()`: any JSON, wrong types included (a boolean where a number goes, a list for an object);
- `send()`: one request over a fresh socket, `Connection: close`; the status, headers and body as they came
  (the first frame of an event stream only). A request too big to be read whole may be cut off by the server
  after its answer: the answer is still read.
"""

from __future__ import annotations

import contextlib
import json
import socket
import urllib.parse
from dataclasses import dataclass

from hypothesis import strategies as st

DIGITS_OF_EVERY_SCRIPT = "²³¹١٢٣۴۵६৬௭๘០፩𝟘𝟙①⑴Ⅻ½٠߁႐"
MEGABYTE = "x" * 1_000_000
ODD = [
    "",
    "0",
    "00",
    "-1",
    "+1",
    " 1",
    "1 ",
    "1e3",
    "0x1f",
    "1.5",
    "1_000",
    "9" * 19,
    "9" * 20,
    str(2**63 - 1),
    str(2**63),
    str(2**64),
    "9" * 5000,
    "²",
    "١",
    "𝟙",
    "Ⅻ",
    "١٢",
    "%00",
    "..",
    "../..",
    "null",
    "true",
    "NaN",
    "-0",
    "\u200b1",
    "1\u00a0",
    "ǅ",
    "ß",
    "İ",
    "﷽",
    "\U0001f600",
]


RAW_QUERIES = ["%", "%ff", "%zz", "lang=%c3%28", "&&&", "=", "step=1&step=2", "step", "a=" + "%00" * 40]


def text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from([*ODD, MEGABYTE]),
        st.text(st.sampled_from(DIGITS_OF_EVERY_SCRIPT + "0123456789"), min_size=1, max_size=24),
        st.text(st.characters(categories=("Nd", "No", "Nl")), min_size=1, max_size=8),
        st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), max_size=16),
        st.integers(min_value=-(2**80), max_value=2**80).map(str),
    )


def bodies() -> st.SearchStrategy[bytes | None]:
    return st.one_of(
        st.none(),
        json_value().map(lambda b: json.dumps(b).encode()),
        st.binary(max_size=64),
        st.sampled_from([b"", b"{" * 100_000, MEGABYTE.encode(), b"\xff\xfe{}", b'{"table": 1e999}']),
    )


def json_value() -> st.SearchStrategy[object]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(ODD),
        st.text(max_size=12),
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=6,
    )


def part(value: str) -> str:
    """A path part or query value as a browser sends it: UTF-8, percent-encoded."""
    return urllib.parse.quote(value, safe="")


@dataclass
class Answer:
    status: int | None  # None: the server closed before any answer (only for requests too big to read)
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        """The body as a reader sees it (JSON's escapes undone, so a card is `A♠` in it, not `A\\u2660`)."""
        raw = self.body.decode("utf-8", "replace")
        if self.headers.get("content-type", "").startswith("application/json"):
            try:
                return json.dumps(json.loads(raw), ensure_ascii=False)
            except ValueError:
                return raw
        return raw


def send(
    port: int, method: str, target: str, headers: list[tuple[str, bytes]], body: bytes | None = None
) -> Answer:
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n".encode(
        "utf-8", "surrogateescape"
    )
    for name, value in headers:
        head += name.encode() + b": " + value + b"\r\n"
    if body is not None:
        head += f"Content-Length: {len(body)}\r\n".encode()
    raw = head + b"\r\n" + (body or b"")
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(raw)  # (the server may answer and close before reading it all)
        streaming = False
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            got += chunk
            if b"\r\n\r\n" in got and not streaming:
                streaming = b"text/event-stream" in got.split(b"\r\n\r\n", 1)[0].lower()
                if streaming:
                    sock.settimeout(2.0)  # the first frame comes at once, unless the browser has it
            if streaming and b"\n\n" in got.split(b"\r\n\r\n", 1)[1]:
                break  # the first frame: enough (a feed stays open)
    if not got.startswith((b"HTTP/1.1 ", b"HTTP/1.0 ")):
        return Answer(None, {}, got)
    header_part, _, content = got.partition(b"\r\n\r\n")
    lines = header_part.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    parsed = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        parsed[name.strip().lower()] = value.strip()
    if parsed.get("transfer-encoding") == "chunked":
        content = _unchunked(content)
    return Answer(status, parsed, content)


def _unchunked(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            break
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out
