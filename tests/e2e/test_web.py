"""The table on the web, in a real headless Chromium (tests/e2e/browser.py): a Malice game against the
computer played through the fake Discord while a browser watches its page.

- every stored move reaches the page within a second of being stored (the stored signal's time against the
  browser's receipt of the live frame, one machine's clock) and the last frame is the last move;
- no hidden card in the page's board, nor in any live frame, checked against the stored state of the frame's
  own move (the engine replays the stored log here);
- the finished game's replay page steps through the whole game with the arrow keys, each step headed by
  its action as /history words it (the fake Discord's /history answer);
- screenshots at 360x740 and 1280x800, English and German, are written by the test (WEB_SCREENSHOTS: a folder
  to copy them to).
"""

from __future__ import annotations

import html as htmllib
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY
from pydantic import SecretStr

from tests.e2e.browser import BROWSER_MISSING, Browser
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import hidden_cards, live_game, poll
from tests.e2e.test_replay import Expected

pytestmark = [
    pytest.mark.skipif(BROWSER_MISSING is not None, reason=BROWSER_MISSING or ""),
    pytest.mark.bot(web_port=0, web_secret=SecretStr("e2e-web-secret-0123456789")),
]

RECORD_FRAMES = """
window.__frames = [];
const NativeSource = window.EventSource;
window.EventSource = function (url, options) {
  const source = new NativeSource(url, options);
  source.addEventListener("table", (e) => {
    window.__frames.push({ at: Date.now() / 1000, data: e.data });
    document.documentElement.dataset.frames = String(window.__frames.length);
  });
  return source;
};
"""
TAG = re.compile(r"<[^>]+>")


def text_of(fragment: str) -> str:
    return htmllib.unescape(TAG.sub(" ", fragment))


def board_of(fragment: str) -> str:
    """The page's board: everything but the log (the log tells moves as they happened, like Discord's: a card
    named there may have gone back into the stock since)."""
    board, _, _ = fragment.partition('<section class="card log"')
    return text_of(board)


@pytest.fixture(scope="session")
def chromium() -> Any:
    browser = Browser()
    yield browser
    browser.close()


def shots_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


async def screenshot(chromium: Browser, url: str, path: Path, size: tuple[int, int], locale: str) -> str:
    def take(browser: Any) -> str:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale)
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state("load")
        page.screenshot(path=str(path), full_page=False)
        lang = page.evaluate("document.documentElement.lang")
        context.close()
        return str(lang)

    return str(await chromium.run(take))


async def play(harness: Harness, alice: Any) -> None:
    """Alice plays to the centre when she can, else ends her turn, until the game ends by the rules."""
    for _ in range(400):
        await poll(
            lambda: (g := live_game(harness)) is None or g.current_player == str(alice.id),
            what="Alice's turn or the end",
        )
        game = live_game(harness)
        if game is None:
            return
        centre = [a for a in game.legal_actions() if a.kind == "play" and a.to.startswith("centre")]
        if centre:
            move = centre[0]
            await alice.slash(
                "malice play", card=str(move.card) if move.source == "hand" else move.source, to=move.to
            )
        else:
            await alice.slash("malice end")
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_a_browser_watches_a_malice_game_live_then_steps_through_its_replay(
    harness: Harness, chromium: Browser, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "e2e-web-malice-1")
    fake, bot = harness.fake, harness.bot
    assert bot is not None and bot.web is not None
    stored: dict[int, float] = {}  # seq -> when it was stored (published after its commit)
    bot.sessions.tables.stored.listen(lambda fact: stored.setdefault(fact.record.seq, time.time()))
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=fake.bot_user, turns=6)
    table = await poll(lambda: bot.sessions.tables.in_channel(fake.channel("games").id), what="the table")
    url = bot.web.table_url(table.id)
    shots = shots_folder(tmp_path)

    def open_page(browser: Any) -> Any:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
        context.add_init_script(RECORD_FRAMES)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-frames]", state="attached")  # the page's CSP allows no eval
        return page

    watching = REGISTRY.get_sample_value("cardtable_web_viewers") or 0.0
    page = await chromium.run(open_page)
    assert REGISTRY.get_sample_value("cardtable_web_viewers") == watching + 1, "/metrics counts the viewer"
    # Screenshots of the game under way (Alice's turn, the clock running), in both languages at both sizes.
    for locale in ("en-US", "de-DE"):
        for size in ((360, 740), (1280, 800)):
            lang = await screenshot(chromium, url, shots / f"live-{locale[:2]}-{size[0]}.png", size, locale)
            assert lang == locale[:2]
    await play(harness, alice)
    await bot.sessions.idle()
    row = await harness.store.last_table(fake.channel("games").id)
    assert row.status == "finished"
    expected = Expected(row, await harness.store.actions(row.id))
    final = expected.last

    def frames(_: Any) -> list[dict[str, Any]]:
        page.wait_for_selector(f"#table[data-seq='{final}']", state="attached")
        return list(page.evaluate("window.__frames"))

    received = await chromium.run(frames)
    shown = [(f["at"], json.loads(f["data"])) for f in received]
    assert shown[-1][1]["seq"] == final and shown[-1][1]["status"] == "finished"
    # Every stored move reached the page within a second of being stored.
    late = []
    for seq, at in sorted(stored.items()):
        first = next((when for when, frame in shown if frame["seq"] >= seq), None)
        assert first is not None, f"move {seq} never reached the page"
        if first - at > 1.0:
            late.append((seq, round(first - at, 3)))
    assert not late, f"moves that reached the page more than 1 s after being stored: {late}"
    # No hidden card in any frame's board, against the stored state of that frame's move.
    for _, frame in shown:
        hidden = hidden_cards(expected.states[frame["seq"]]) if frame["seq"] < final else set()
        board = board_of(frame["html"])
        leaked = [card for card in hidden if card in board]
        assert not leaked, f"hidden cards {leaked} on the page at move {frame['seq']}"
    dom = await chromium.run(lambda _: page.inner_text("main"))
    assert "Game over" in dom and expected.row.seed in dom

    # Screenshots of the finished table, in both languages at both sizes.
    for locale in ("en-US", "de-DE"):
        for size in ((360, 740), (1280, 800)):
            lang = await screenshot(chromium, url, shots / f"table-{locale[:2]}-{size[0]}.png", size, locale)
            assert lang == locale[:2]

    # The replay, stepped with the arrow keys, each step's action as /history words it, numbered as its step.
    history = await alice.slash("history", game=f"#{row.id}")
    lines = [
        line for m in history.messages for e in m.embeds for line in (e.get("description") or "").split("\n")
    ]
    worded = {int(m.group(1)): m.group(2) for line in lines if (m := re.match(r"`\s*(\d+)` (.*)", line))}
    names = {p: expected.record.session.names.get(p) for p in expected.record.players}
    replay = bot.web.replay_url(row.id)

    def step_through(browser: Any) -> list[str]:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
        viewer = context.new_page()
        viewer.goto(replay)
        actions = []
        for step in range(1, final + 1):
            viewer.keyboard.press("ArrowRight")
            viewer.wait_for_selector(f"body[data-step='{step}']", state="attached")
            actions.append(viewer.inner_text(".action"))
        viewer.keyboard.press("ArrowLeft")
        viewer.wait_for_selector(f"body[data-step='{final - 1}']", state="attached")
        context.close()
        return actions

    actions = await chromium.run(step_through)
    assert len(actions) == final == len(worded)
    for seq, action in enumerate(actions):
        said = re.sub(r"<@(\d+)>", lambda m: names.get(m.group(1)) or "", worded[seq + 1])
        # Numbered as the step (the counter's "move n of N"), seq + 1, as /history numbers it: from 1.
        assert " ".join(action.split()) == " ".join(f"{seq + 1:>3} {said}".replace("`", "").split()), seq
    # The replay and the server's leaderboard, in both languages at both sizes.
    board = bot.web.board_url(row.guild_id)
    for locale in ("en-US", "de-DE"):
        for size in ((360, 740), (1280, 800)):
            middle, tag = f"{replay}?step={final // 2}", f"{locale[:2]}-{size[0]}"
            assert await screenshot(chromium, middle, shots / f"replay-{tag}.png", size, locale) == locale[:2]
            assert await screenshot(chromium, board, shots / f"board-{tag}.png", size, locale) == locale[:2]
    await chromium.run(lambda _: page.context.close())
    await poll(lambda: REGISTRY.get_sample_value("cardtable_web_viewers") == watching, what="the viewer gone")
    copy_to = os.environ.get("WEB_SCREENSHOTS")
    if copy_to:
        shutil.copytree(shots, copy_to, dirs_exist_ok=True)
