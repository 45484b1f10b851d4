"""One leaderboard section for every surface (bot/render/leaderboard.py `board_section`, drawn by
`/leaderboard` and by the board's web page through bot/sessions/boards.py)."""

from __future__ import annotations

from bot.render.leaderboard import ALL_TIME, CHIPS, RATING, board_section


def test_a_page_says_whether_another_follows_and_shows_one_page():
    lines = [f"{n}. someone" for n in range(1, 12)]
    section = board_section(None, CHIPS, ALL_TIME, lines, page=0, size=10, seasons_kept=False, locale="en")
    assert section.more and len(section.lines) == 10 and section.text.startswith("1. someone")
    last = board_section(None, CHIPS, ALL_TIME, lines[:3], page=1, size=10, seasons_kept=False, locale="en")
    assert not last.more


def test_an_empty_section_says_why_in_the_readers_language():
    def empty(by: str, season: str, page: int = 0, kept: bool = False, locale: str = "en") -> str:
        said = board_section("malice", by, season, [], page=page, size=10, seasons_kept=kept, locale=locale)
        return said.text

    assert empty(CHIPS, ALL_TIME, page=2) == "No more players on this page."
    assert empty(RATING, ALL_TIME).startswith("No rated game here yet")
    assert empty(CHIPS, "2026-11", kept=True) == "No game ended in season 2026-11 yet."
    assert empty(CHIPS, "2026-11", kept=False).startswith("No finished games in this server yet")
    assert empty(CHIPS, ALL_TIME, locale="de") != empty(CHIPS, ALL_TIME)
