#!/usr/bin/env bash
# Re-lock the exact versions after changing a dependency in pyproject.toml:
#   bash requirements/update.sh            (then run the tests and commit both files)
# lock.txt: what the bot runs with (the container installs only this); test.txt: lock.txt plus the test tools,
# constrained to the same versions (CI installs this).
set -euo pipefail
cd "$(dirname "$0")/.."
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install --quiet pip-tools
export CUSTOM_COMPILE_COMMAND="bash requirements/update.sh"
common=(--quiet --strip-extras --no-emit-index-url --no-emit-find-links --upgrade)
"$tools/bin/pip-compile" "${common[@]}" -o requirements/lock.txt pyproject.toml
"$tools/bin/pip-compile" "${common[@]}" --extra test -c requirements/lock.txt -o requirements/test.txt pyproject.toml
# docs.txt: the documentation site's tools (the `docs` extra) with everything above at the same versions
# (CI installs it beside test.txt, for `mkdocs build --strict`).
"$tools/bin/pip-compile" "${common[@]}" --extra docs -c requirements/test.txt -o requirements/docs.txt pyproject.toml
