"""The Activity's identity checks (bot/web/identity.py) without Discord: the budget of questions about tokens
Discord has not answered yet. Discord bans an address that sends it too many unauthorised requests, so a
flood of made-up tokens must be refused by the bot (429, with when to come back) before it reaches Discord;
the budget refills with time (the clock is the caller's: no waiting here)."""

from __future__ import annotations

import pytest

from bot.web.guard import Refusal
from bot.web.identity import ASK_BURST, ASK_RATE, Identity


def test_questions_about_new_tokens_are_budgeted() -> None:
    identity = Identity("http://127.0.0.1:9/api/v10", 1, "secret", "bot-token")
    start = identity._asks[1]
    for _ in range(ASK_BURST):
        identity._ask(start)
    with pytest.raises(Refusal) as refused:
        identity._ask(start)
    assert refused.value.status == 429 and refused.value.retry_after == 1
    for _ in range(int(ASK_RATE)):  # a second later, a second's worth again
        identity._ask(start + 1.0)
    with pytest.raises(Refusal):
        identity._ask(start + 1.0)
