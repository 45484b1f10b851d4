"""The store with each operation timed for /metrics (`cardtable_db_seconds`: every store operation is one
transaction) and each stored move counted by game (`cardtable_moves`). A wrapper the bot gets in place of its
store when metrics are on; the store itself is untouched."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import Any

from bot.ops.metrics import DB_SECONDS, MOVES
from storage import Store, TableRow

_KIND_ARG = 2  # create_table(guild_id, channel_id, kind, ...)


class TimedStore:
    """Delegates everything to `store`; its coroutines are timed, by operation name."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._kinds: dict[int, str] = {}  # table id -> game, learnt from what the store returned

    @property
    def inner(self) -> Store:
        return self._store

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name.startswith("_") or name == "close" or not inspect.iscoroutinefunction(attr):
            return attr
        return self._timed(name, attr)

    def _timed(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                result = await call(*args, **kwargs)
            finally:
                DB_SECONDS.labels(name).observe(time.perf_counter() - started)
            await self._note(name, args, kwargs, result)
            return result

        return timed

    async def _note(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any) -> None:
        if name == "create_table":
            kind = kwargs["kind"] if "kind" in kwargs else args[_KIND_ARG]
            self._kinds[int(result)] = str(kind)
        elif isinstance(result, TableRow):
            self._kinds[result.id] = result.kind
        elif isinstance(result, list) and result and isinstance(result[0], TableRow):
            self._kinds.update((row.id, row.kind) for row in result)
        elif name == "append_action":
            table_id = int(kwargs["table_id"] if "table_id" in kwargs else args[0])
            kind = self._kinds.get(table_id)
            if kind is None:
                row = await self._store.get_table(table_id)
                kind = self._kinds[table_id] = row.kind if row is not None else "unknown"
            MOVES.labels(kind).inc()

    async def close(self) -> None:
        await self._store.close()

    async def __aenter__(self) -> TimedStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
