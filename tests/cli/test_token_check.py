"""`cardtable-bot check` checks the token's shape offline, through the command line as a person runs it: what
people paste instead of the bot token is named in one sentence, exit 2, before the database is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import TOKEN, cli, one_line

MISTAKES = {
    "bogus": "is not a bot token",
    "1234567890123456789": "is an application id",
    "a b.c.d": "contains a space",
    '"' + TOKEN + '"': "is in quotes",
    "Bot " + TOKEN: 'starts with "Bot "',
    "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY": "client secret",
    "0f" * 32: "public key",
    "bm90LWFuLWlk.AbCdEf.not-a-real-token": "its first part should be the application id",
}


@pytest.mark.parametrize("token", MISTAKES)
def test_a_token_of_the_wrong_shape_is_named_in_one_sentence_and_exit_2(tmp_path: Path, token: str) -> None:
    done = cli("check", cwd=tmp_path, DISCORD_TOKEN=token)
    assert done.returncode == 2, done.stderr
    line = one_line(done.stderr)
    assert line.startswith("cardtable-bot: DISCORD_TOKEN ") and MISTAKES[token] in line
    assert line.endswith("(Reset Token).") and line.count(". ") == 0, "one sentence"
    assert token not in line or len(token) < 8, "the sentence does not repeat the token"
    assert not (tmp_path / "cardbot.sqlite3").exists(), "checked before the database is touched"


def test_a_well_shaped_token_passes_and_names_its_application(tmp_path: Path) -> None:
    done = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    assert "bot token of application 900000000000000001" in done.stdout
