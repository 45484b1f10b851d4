"""The web's counters, in prometheus-client's default registry beside the bot's (`bot.ops.metrics`): served
at /metrics when METRICS_PORT is set."""

from __future__ import annotations

from prometheus_client import Counter, Gauge

PAGES = Counter(
    "cardtable_web_pages", "Web pages served, by page (table, replay, replay_step, board).", ["page"]
)
REFUSED = Counter(
    "cardtable_web_refused", "Web requests refused, by HTTP status (4xx: bad input or rate).", ["status"]
)
VIEWERS = Gauge("cardtable_web_viewers", "Live viewers: open live feeds of table pages.")
FRAMES = Counter("cardtable_web_frames", "Live frames sent to viewers (one per stored change per viewer).")
