"""A stand-in for Discord's client around the Activity (issue 33), for the tests in a real Chromium.

Discord's client shows an Activity as an iframe and talks to the Embedded App SDK in it by `postMessage`
(discord/embedded-app-sdk, src/Discord.ts): the SDK sends `[0, {v: 1, encoding, client_id, frame_id}]`
(HANDSHAKE); the client answers with a FRAME `[1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v,
config}}]`; each command is a FRAME `[1, {cmd, args, nonce}]`, answered `[1, {cmd, evt: null, nonce, data}]`
or, refused, `[1, {cmd, evt: "ERROR", nonce, data: {code, message}}]`. The iframe's URL carries the launch's
query: `frame_id`, `instance_id`, `platform`, `guild_id`, `channel_id`.

The stand-in page answers exactly that: the handshake is checked (version, client id, frame id) before READY;
AUTHORIZE answers the code the fake Discord issued for this user (`FakeDiscord.authorize_code`), only for
this client id, response type `code` and the `identify` scope; AUTHENTICATE answers the token's user and
scopes. Anything else is an ERROR frame. The stand-in is the top page, and
the page is served as https://discord.com's (a Playwright route answers that one address), the Activity is the
bot's page in the iframe, which the bot lets only Discord's client origins frame.

The helpers below run in the browser's thread (`tests/e2e/browser.py`): they get Playwright's sync objects.
"""

from __future__ import annotations

import json
import time
from typing import Any

STAND_IN = """<!doctype html><html><head><meta charset="utf-8"><title>Discord (stand-in)</title></head>
<body style="margin:0;background:#1e1f22"><iframe id="app" style="border:0;width:100vw;height:100vh"
  src="%(src)s"></iframe>
<script>
const CLIENT_ID = %(client_id)s, FRAME_ID = %(frame_id)s, CODE = %(code)s, USER = %(user)s;
const frame = document.getElementById("app");
const target = new URL(frame.src).origin;
window.__rpc = [];
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, payload] = event.data;
  window.__rpc.push(op === 1 ? payload.cmd : op);
  const reply = (body) => frame.contentWindow.postMessage([1, body], target);
  if (op === 0) {
    if (payload.v !== 1 || payload.client_id !== CLIENT_ID || payload.frame_id !== FRAME_ID) {
      frame.contentWindow.postMessage([2, {code: 4000, message: "Invalid handshake"}], target);
      return;
    }
    const config = {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
      environment: "production"};
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, user: USER, config}});
    return;
  }
  if (op !== 1) return;
  const {cmd, nonce, args} = payload;
  const fail = (code, message) => reply({cmd, evt: "ERROR", nonce, data: {code, message}});
  if (cmd === "AUTHORIZE") {
    const scopes = args.scope || [];
    if (args.client_id !== CLIENT_ID || args.response_type !== "code" || !scopes.includes("identify"))
      return fail(4002, "Invalid authorize request");
    reply({cmd, evt: null, nonce, data: {code: CODE}});
  } else if (cmd === "AUTHENTICATE") {
    if (typeof args.access_token !== "string" || !args.access_token) return fail(4009, "Invalid token");
    reply({cmd, evt: null, nonce, data: {access_token: args.access_token, user: {...USER, public_flags: 0},
      scopes: ["identify"], expires: new Date(Date.now() + 6.048e8).toISOString(),
      application: {id: CLIENT_ID, name: "Cardtable", description: "Card games", icon: null}}});
  } else {
    fail(4000, "Unknown command " + cmd);
  }
});
</script></body></html>"""

CLIENT_URL = "https://discord.com/channels/activity-stand-in"
# The Activity's CSP allows no eval, so the tests wait for attribute selectors (or poll by evaluating, which
# the browser's own protocol does outside the page's policy).
OVER = "['finished', 'cancelled'].includes(document.body.dataset.state)"
TURN_OR_OVER = "body[data-turn='1'], body[data-state='finished'], body[data-state='cancelled']"


def stand_in(
    *,
    base: str,
    client_id: int,
    instance: str,
    channel_id: int,
    guild_id: int,
    code: str,
    user: Any,
    frame_id: str = "frame-1",
) -> str:
    """The stand-in page's HTML around the bot's Activity page at `base` (the bot's web address)."""
    src = (
        f"{base}/activity/?frame_id={frame_id}&instance_id={instance}&platform=desktop"
        f"&guild_id={guild_id}&channel_id={channel_id}"
    )
    who = {"id": str(user.id), "username": user.name, "discriminator": "0", "global_name": None}
    return STAND_IN % {
        "src": src,
        "client_id": json.dumps(str(client_id)),
        "frame_id": json.dumps(frame_id),
        "code": json.dumps(code),
        "user": json.dumps(who),
    }


class Player:
    """One person's browser tab: the stand-in page with the Activity inside (sync Playwright objects)."""

    def __init__(self, browser: Any, html: str, size: tuple[int, int], locale: str) -> None:
        # The stand-in is served as Discord's client is, from https://discord.com (answered here, once); the
        # Activity inside it talks to the bot on this machine directly, where Discord's proxy would stand in
        # between: the browser is let reach the local network (Chrome asks a person that; Discord's proxy
        # makes it public).
        view = {"width": size[0], "height": size[1]}
        self.context = browser.new_context(viewport=view, locale=locale, permissions=["local-network-access"])
        self.context.route(
            CLIENT_URL, lambda route: route.fulfill(status=200, content_type="text/html", body=html)
        )
        self.page = self.context.new_page()
        self.page.goto(CLIENT_URL)
        self.frame = self.page.frame_locator("#app")
        self.messages: list[str] = []
        self.page.on("console", lambda message: self.messages.append(message.text))
        try:
            self.page.wait_for_function("window.__rpc.includes('AUTHENTICATE')", timeout=15_000)
        except Exception as exc:  # say what the page said (the SDK's and the page's own errors)
            said = [str(f.evaluate("document.body.innerText")) for f in self.page.frames[1:]]
            raise AssertionError(f"the Activity did not sign in: {said} {self.messages}") from exc
        self.app = next(f for f in self.page.frames if "/activity/" in f.url)
        self.app.wait_for_selector("body[data-version]", state="attached")

    def seq(self) -> int:
        return int(self.app.evaluate("document.body.dataset.seq || '-1'") or -1)

    def wait_turn(self, timeout: float = 30.0) -> bool:
        """Wait until it is this player's turn (True) or the game is over (False)."""
        self.app.wait_for_selector(TURN_OR_OVER, state="attached", timeout=timeout * 1000)
        return not bool(self.app.evaluate(OVER))

    def wait_seq_past(self, seq: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.seq() <= seq:
            if time.monotonic() > deadline:
                raise AssertionError(f"the page did not go past move {seq}: {self.text()[:300]}")
            self.page.wait_for_timeout(15)

    def tokens(self, selector: str) -> list[str]:
        return [
            str(t) for t in self.app.eval_on_selector_all(selector, "els => els.map(e => e.dataset.token)")
        ]

    def tap(self, selector: str) -> None:
        self.app.locator(selector).first.click()

    def tap_card_to(self, chooser: Any) -> str | None:
        """Tap each playable card in turn and, among the places it may go, the first `chooser(token)`
        accepts; None (nothing tapped for good) when no card has such a place."""
        chips = self.app.locator("button.card-chip.playable")
        for i in range(chips.count()):
            chips.nth(i).click()
            for token in self.tokens("#where button[data-token]"):
                if chooser(token):
                    self.tap(f'#where button[data-token="{token}"]')
                    return token
            chips.nth(i).click()  # put it back
        return None

    def picture_loaded(self, timeout: float = 15.0) -> bool:
        """The table's picture on the page has loaded (an image, not a broken one)."""
        self.app.wait_for_selector("#board img.picture", state="attached")
        deadline = time.monotonic() + timeout
        while not self.app.evaluate("document.querySelector('#board img.picture').naturalWidth > 0"):
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(20)
        return True

    def notice(self) -> str:
        return str(self.app.evaluate("document.getElementById('notice').textContent"))

    def text(self) -> str:
        return str(self.app.inner_text("main"))

    def close(self) -> None:
        self.context.close()
