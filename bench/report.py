"""Writes a benchmark's figures into docs/benchmarks.md, so the page is always the benchmarks' own output.

Each bench owns one section of the page, between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`; running the
bench with `--write` replaces that section (adding it at the end the first time) and leaves the rest alone.
"""

from __future__ import annotations

import os
import platform
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def machine() -> str:
    """One line naming the machine and the software the figures were measured with."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores (load {load}); "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )


def command_line() -> str:
    args = " ".join(a for a in sys.argv[1:] if a != "--write")
    script = Path(sys.argv[0]).as_posix()
    if "bench/" in script:
        script = "bench/" + script.split("bench/", 1)[1]
    return f"python {script} {args}".strip()


def write_section(name: str, markdown: str, *, page: Path = PAGE) -> None:
    """Replace (or append) the section `name` of the benchmarks page with `markdown`, stamped with the
    command that produced it, the machine and the git revision."""
    try:
        revision = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        revision = ""
    stamp = f"Command: `{command_line()}`  \nMachine: {machine()}" + (
        f"  \nRevision: `{revision}`" if revision else ""
    )
    body = f"<!-- bench:{name} -->\n{markdown.strip()}\n\n{stamp}\n<!-- /bench:{name} -->"
    text = page.read_text() if page.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: body, text)
    else:
        text = text.rstrip() + "\n\n" + body + "\n"
    page.write_text(text)
