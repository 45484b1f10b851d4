"""The bot's Prometheus metrics (served at /metrics when METRICS_PORT is set; docs/operators/metrics.md).

Counted where they happen: the HTTP layer (`bot.ops.trace`: requests, 429s, answer latency), the store
(`bot.ops.timed`: moves, transaction time). Read when scraped (`BotCollector`): tables, the presenter's
backlog, shard latency, the rate budget's share. They live in prometheus-client's default registry, as that
library intends (with its process and Python collectors): counting is no state the bot acts on.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MOVES = Counter("cardtable_moves", "Moves stored (people's and computers'), by game.", ["game"])
ANSWER_SECONDS = Histogram(
    "cardtable_answer_seconds",
    "From an interaction reaching the bot to its first answer reaching Discord, by kind of interaction.",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0),
)
REQUESTS = Counter(
    "cardtable_discord_requests",
    "REST requests to Discord, by route and HTTP status (all but interaction answers count against the "
    "token's global limit).",
    ["route", "status"],
)
RATE_LIMITED = Counter(
    "cardtable_discord_429",
    "429 Too Many Requests received from Discord, by route and scope (user, global, shared).",
    ["route", "scope"],
)
DB_SECONDS = Histogram(
    "cardtable_db_seconds",
    "Time of one database operation (one transaction), by store operation.",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

# The name of the path parameter after each fixed segment of Discord's REST routes.
_PARAMS = {
    "channels": "channel_id",
    "messages": "message_id",
    "guilds": "guild_id",
    "users": "user_id",
    "members": "user_id",
    "applications": "application_id",
    "commands": "command_id",
    "interactions": "interaction_id",
    "webhooks": "application_id",
    "reactions": "emoji",
    "roles": "role_id",
    "threads": "thread_id",
}
_API = re.compile(r"/api/v\d+(/.*)$")


def route_of(method: str, path: str) -> str | None:
    """The route template of a request path, e.g. "PATCH /channels/{channel_id}/messages/{message_id}";
    None when the path is not Discord's REST API (the gateway's websocket)."""
    match = _API.search(path)
    if match is None:
        return None
    parts = match.group(1).strip("/").split("/")
    out: list[str] = []
    for i, part in enumerate(parts):
        before = parts[i - 1] if i else ""
        if before in _PARAMS and part != "@me" and (part.isdigit() or before == "reactions"):
            out.append("{" + _PARAMS[before] + "}")
        elif i >= 2 and parts[i - 2] in ("interactions", "webhooks"):
            out.append("{token}")  # /interactions/{id}/{token}/callback, /webhooks/{id}/{token}
        else:
            out.append(part)
    return f"{method.upper()} /" + "/".join(out)


def global_limited(route: str) -> bool:
    """Whether the route counts against the token's global limit: everything but interaction answers and
    their followups (which go by the interaction's token)."""
    return "{token}" not in route


@dataclass
class BotReadings:
    """What `BotCollector` reads from the running bot at each scrape (each a function: the bot's parts come
    and go with its extensions)."""

    tables: Callable[[], dict[str, int]]  # open tables of this process by status
    backlog: Callable[[], tuple[int, float]]  # the presenter's waiting tables, and the longest wait (s)
    latencies: Callable[[], Sequence[tuple[int, float]]]  # (shard id, gateway latency s)
    share: Callable[[], tuple[int, int]]  # this process's share of the global limit, processes sharing it


class BotCollector(Collector):
    """Gauges read from the running bot when Prometheus scrapes."""

    def __init__(self, readings: BotReadings) -> None:
        self.readings = readings

    def collect(self) -> Iterable[GaugeMetricFamily]:
        r = self.readings
        tables = GaugeMetricFamily(
            "cardtable_tables", "Open tables this process runs, by status.", labels=["status"]
        )
        counts = r.tables()
        for status in ("lobby", "running"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        waiting, longest = r.backlog()
        yield GaugeMetricFamily(
            "cardtable_presenter_waiting_tables",
            "Tables whose message does not show their newest state yet (waiting for Discord's budget).",
            value=waiting,
        )
        yield GaugeMetricFamily(
            "cardtable_presenter_behind_seconds",
            "How long the longest-waiting of those tables has waited to show its newest state.",
            value=longest,
        )
        shards = GaugeMetricFamily(
            "cardtable_shard_latency_seconds",
            "Gateway heartbeat latency of each shard this process runs (NaN before the first heartbeat).",
            labels=["shard"],
        )
        for shard, latency in r.latencies():
            shards.add_metric([str(shard)], latency if math.isfinite(latency) else math.nan)
        yield shards
        share, processes = r.share()
        yield GaugeMetricFamily(
            "cardtable_rate_share",
            "Requests per second this process may send now: its share of the token's global budget (0 "
            "while it joins or its lease lapsed).",
            value=share,
        )
        yield GaugeMetricFamily(
            "cardtable_rate_processes",
            "Processes sharing the token's global budget, as this process's last renewal saw them.",
            value=processes,
        )
