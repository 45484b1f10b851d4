"""Make the documentation site's pictures that are not in git, into docs/pictures/built/ (git-ignored):

- the play-by-clicks pictures (scripts/make_click_pictures.py: the table message and the Move dialog, composed
  by the bot's own code);
- the web page and the Activity, screenshotted in headless Chromium (/usr/bin/chromium, driven by Playwright)
  by the browser tests that play real games on them: tests/e2e/test_web.py writes its screenshots where
  WEB_SCREENSHOTS says, tests/e2e/test_activity.py where ACTIVITY_SCREENSHOTS says.

The pictures the bot itself draws (tables, hands, result cards, the chart) are in git instead, in
docs/pictures/, made by scripts/make_pictures.py and checked by tests/render/test_doc_pictures.py: the README
shows one of them.

    python scripts/make_site_pictures.py                # everything (needs Chromium and the built Activity)
    python scripts/make_site_pictures.py --no-browser   # the click pictures only (CI: its test run already
                                                        # wrote the screenshots, see .ci/run)

A picture the pages use and nobody made fails `mkdocs build --strict`, naming the picture.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "docs" / "pictures" / "built"
# The browser tests whose screenshots the site shows, and the variable each reads.
WEB_TEST = "tests/e2e/test_web.py::test_a_browser_watches_a_malice_game_live_then_steps_through_its_replay"
BROWSER_TESTS = {
    "WEB_SCREENSHOTS": ("web", WEB_TEST),
    "ACTIVITY_SCREENSHOTS": ("activity", "tests/e2e/test_activity.py"),
}


def screenshots() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    tests = []
    for variable, (folder, test) in BROWSER_TESTS.items():
        env[variable] = str(BUILT / folder)
        tests.append(test)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *tests]
    done = subprocess.run(command, cwd=ROOT, env=env)
    if done.returncode != 0:
        sys.exit(f"make_site_pictures: the browser tests failed (exit {done.returncode}): no screenshots")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--no-browser", action="store_true", help="skip the browser screenshots")
    args = parser.parse_args()
    BUILT.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_click_pictures.py")], check=True)
    if not args.no_browser:
        screenshots()


if __name__ == "__main__":
    main()
