"""The terminal itself: lines in and out, line editing and history on a real terminal, echo for piped input.

On a terminal, `readline` (where Python has it) gives the prompt line editing, the arrow keys' history of this
game's lines and tab completion of the moves legal now. Piped input is not shown by any terminal, so each
line read is printed after the prompt (cut to an excerpt: a 5,000-character line is not repeated whole), and
the transcript reads like a game played by hand.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import IO, Any

from bot.i18n import excerpt

ECHO = 80  # characters of a piped line shown after the prompt
READ_LIMIT = 1000  # characters of a line read at all: nothing longer means anything here
# Piped lines in a row that make no move before the game gives up on its input: a refused line piped without
# end (`yes 1`) would otherwise be answered forever. No game asks for this many words between two moves.
IDLE_LINES = 20
EXIT_INPUT_REFUSED = 1  # the exit code when the game gives up on its piped input


def _readline() -> Any:
    """The `readline` module, or None where Python has none (Windows without pyreadline)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - every Linux and macOS Python has it
        return None
    return readline


class Console:
    def __init__(self, stdin: IO[str], stdout: IO[str], stderr: IO[str] | None = None) -> None:
        self._in = stdin
        self._out = stdout
        self._err = stderr if stderr is not None else stdout
        self._interactive = stdin.isatty() and stdout.isatty()
        self._readline = _readline() if self._interactive else None
        self._words: Callable[[], list[str]] = list
        if self._readline is not None:
            self._readline.set_completer(self._complete)
            self._readline.set_completer_delims("")  # a whole move is one completion ("play 7h centre1")
            self._readline.parse_and_bind("tab: complete")

    @property
    def interactive(self) -> bool:
        """Whether a person types at a terminal (else the lines are piped)."""
        return self._interactive

    def write(self, text: str) -> None:
        self._out.write(text)

    def complain(self, text: str) -> None:
        """Why the game stops on its own (its piped input refused): on standard error, as every command
        says why it failed, so a script reading the game's output sees the reason apart from the game."""
        self.flush()
        self._err.write(text)
        with contextlib.suppress(OSError, ValueError):
            self._err.flush()

    def complete_with(self, words: Callable[[], list[str]]) -> None:
        """What tab offers: the moves and words that mean something now."""
        self._words = words

    def _complete(self, text: str, state: int) -> str | None:
        typed = text.lower()
        found = [w for w in self._words() if w.startswith(typed)]
        return found[state] if state < len(found) else None

    def ask(self, prompt: str) -> str | None:
        """One line typed or piped, without its line end; None at the end of the input."""
        if self._interactive:
            try:
                line = input(prompt)  # readline's editing and history, when loaded
            except EOFError:  # Ctrl+D
                self.write("\n")
                return None
            return line[:READ_LIMIT]
        self.write(prompt)
        self._out.flush()
        raw = self._in.readline(READ_LIMIT)
        if not raw:
            return None
        line = raw.rstrip("\r\n")
        if len(raw) == READ_LIMIT and not raw.endswith("\n"):
            # The rest of an overlong line: read and dropped, so it is not taken for the next line.
            while (more := self._in.readline(READ_LIMIT)) and not more.endswith("\n"):
                pass
        self.write(excerpt(line, ECHO) + "\n")
        return line

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._out.flush()
