"""Playing `python -m bot play` as a person would: piped input, a conversation move by move, or a real
terminal.

The terminal's language follows the locale variables of the environment, so every run here sets them itself
(English unless a test asks for German): nothing of this machine's locale leaks in.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.helpers import clean_env

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
PROMPT = "your move (help, quit)> "


def play_env(**env: str) -> dict[str, str]:
    base = {k: v for k, v in clean_env().items() if k not in LOCALE_VARIABLES}
    return {"LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", **base, **env}


def play(
    *args: str, cwd: Path, input: str = "", timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[str]:
    """A whole run with piped input."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        cwd=cwd,
        env=play_env(**env),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        input=input,
    )


class Conversation:
    """A game played one line at a time through pipes: each `say` answers the prompt and returns what the
    game printed up to its next prompt (or its end)."""

    def __init__(self, *args: str, cwd: Path, prompt: str = PROMPT, **env: str) -> None:
        self.prompt = prompt
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", *args],
            cwd=cwd,
            env=play_env(**env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.opening = self.until_prompt()

    def until_prompt(self, timeout: float = 30) -> str:
        assert self.process.stdout is not None
        out = b""
        end = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while not out.endswith(self.prompt.encode()):
            ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise TimeoutError(f"no prompt after:\n{out.decode()[-2000:]}")
            chunk = os.read(fd, 65536)
            if not chunk:
                break  # the game ended
            out += chunk
        return out.decode()

    def say(self, line: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        return self.until_prompt()

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl+C as a terminal sends it; the exit code, the rest of the output and standard error."""
        self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out.decode(), err.decode()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=30)


def on_a_terminal(*args: str, cwd: Path, keys: list[bytes], timeout: float = 60) -> str:
    """A game on a real (pseudo) terminal: standard input and output are a tty, so readline edits the line.
    Each item of `keys` is typed once the game waits for input; returns everything the terminal showed."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", *args],
        cwd=cwd,
        env=play_env(TERM="dumb"),
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    shown = b""
    pending = list(keys)
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the game ended and closed the terminal
                    break
                if not chunk:
                    break
                shown += chunk
                if pending and shown.rstrip().endswith(b">"):
                    os.write(leader, pending.pop(0))
            elif process.poll() is not None:
                break
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    return shown.decode(errors="replace").replace("\r\n", "\n")
