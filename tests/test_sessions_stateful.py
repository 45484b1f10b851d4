"""The session layer under several users sending random commands, often illegal, duplicated or concurrent,
with restarts in between (a hypothesis state machine). After every step: one active table per channel in
memory and in the store, each applied move in the log once with consecutive numbers, the stored snapshot
equal to the replay of the log, and for finished games results that match the ledger."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bot.games.registry import REGISTRY
from bot.sessions import NotAllowed, SessionManager
from bot.sessions import lobbies as service
from bot.sessions.kinds import game_options
from storage import Store
from tests.live import TestSessions
from tests.recording import RecordingAnnouncer
from tests.refusals import english

CHANNEL, GUILD, BOT = 500, 1, 999
USERS = [101, 102, 103]
user = st.sampled_from(USERS)


class Tables(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Fixed seeds: the same steps must make the same games (hypothesis replays them to shrink).
        seeds = iter(range(1_000_000))
        self._seed, service.new_seed = service.new_seed, lambda: f"stateful-{next(seeds)}"
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.TemporaryDirectory()
        self.path = str(Path(self.folder.name) / "cards.sqlite3")
        self.store: Store = self.run(Store.open(self.path))
        self.sessions = self.new_manager()
        self.refusals = 0

    def new_manager(self) -> SessionManager:
        return TestSessions(
            self.store, RecordingAnnouncer(), default_timeout=0, bot_user_id=BOT, coalesce=0.0, pacing=False
        )

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    def attempt(self, coro) -> None:
        """A command as a user sends it: it either goes through or is refused in a sentence."""

        async def guarded():
            try:
                await coro
            except NotAllowed as exc:
                assert english(exc).strip(), "a refusal is a sentence"
                self.refusals += 1

        self.run(guarded())
        self.run(self.sessions.idle())

    def teardown(self) -> None:
        self.run(self.sessions.close(flush=0))
        self.run(self.store.close())
        self.loop.close()
        self.folder.cleanup()
        service.new_seed = self._seed

    @property
    def table(self):
        return self.sessions.table_in(CHANNEL)

    # ---- lobby

    @rule(host=user, chips=st.integers(1, 6), deals=st.integers(1, 2))
    def open_insomnia(self, host, chips, deals):
        self.attempt(
            self.sessions.open_table(
                "insomnia", GUILD, CHANNEL, host, options={"chips": chips, "deals": deals}
            )
        )

    @rule(host=user, opponent=st.sampled_from([*USERS, BOT]), turns=st.integers(1, 6))
    def challenge(self, host, opponent, turns):
        self.attempt(
            self.sessions.open_table(
                "malice", GUILD, CHANNEL, host, opponent=opponent, options={"stake": 1, "turns": turns}
            )
        )

    @rule(who=user, what=st.sampled_from(["join", "leave", "add_computer", "start", "accept", "decline"]))
    def lobby(self, who, what):
        self.attempt(getattr(self.sessions.lobbies, what)(CHANNEL, who))

    # ---- play

    @precondition(lambda self: self.table is not None and self.table.status == "running")
    @rule(data=st.data(), copies=st.integers(1, 3))
    def move(self, data, copies):
        """The player to move (or someone else) sends a legal move, the same one `copies` times at once."""
        game = self.table.game
        current = game.current_player
        who = data.draw(st.sampled_from([int(current)] if current and current.isdigit() else USERS) | user)
        actions = game.legal_actions()
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        seq = self.table.seq

        async def all_at_once():
            results = await asyncio.gather(
                *(self.sessions.moves.act(CHANNEL, who, action, seq=seq) for _ in range(copies)),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, BaseException) and not isinstance(result, NotAllowed):
                    raise result
            applied = [r for r in results if not isinstance(r, BaseException)]
            assert len(applied) <= 1, "a move offered at one number is applied at most once"

        self.run(all_at_once())
        self.run(self.sessions.idle())

    @precondition(lambda self: self.table is not None and self.table.status == "running")
    @rule(data=st.data())
    def typed_command(self, data):
        """A slash command with whatever the user typed, often nonsense."""
        kind = self.table.kind
        insomnia = ["exchange", "bid", "pass", "rethrow", "play"]
        commands = ["play", "end"] if kind == "malice" else insomnia
        command = data.draw(st.sampled_from(commands))
        typed = ["AS", "10H", "payoff", "side1", "centre", "x" * 50, "3", "-1", "²"]
        text = data.draw(st.sampled_from(typed))
        params = {
            "card": text,
            "to": data.draw(st.sampled_from(["centre", "side2", "nowhere"])),
            "amount": text,
            "die": text,
        }
        self.attempt(self.sessions.moves.command(CHANNEL, data.draw(user), kind, command, params))

    @rule(who=user)
    def resign(self, who):
        self.attempt(self.sessions.life.resign(CHANNEL, who))

    @rule(who=user, manager=st.booleans())
    def cancel(self, who, manager):
        self.attempt(self.sessions.cancel(CHANNEL, who, can_manage=manager))

    @rule()
    def restart(self):
        self.run(self.sessions.close(flush=0))
        self.sessions = self.new_manager()
        self.run(self.sessions.resume_all())
        self.run(self.sessions.idle())

    # ---- invariants

    @invariant()
    def one_table_per_channel_and_the_log_replays(self):
        async def check():
            active = await self.store.active_table(CHANNEL)
            table = self.table
            assert (active.id if active else None) == (table.id if table else None)
            last = await self.store.last_table(CHANNEL)
            if last is None or last.status not in ("running", "finished"):
                return
            actions = await self.store.actions(last.id)
            assert [a.seq for a in actions] == list(range(len(actions))), "each move once, in order"
            players = [s.player for s in sorted(last.seats, key=lambda s: s.seat)]
            game = REGISTRY[last.kind].replay(
                players, last.seed, game_options(last.options), [a.action for a in actions]
            )
            assert game.model_dump_json() == last.snapshot, "the snapshot is the replay of the log"
            if last.status == "finished":
                net: dict[str, int] = {}
                for e in await self.store.ledger(last.id):
                    net[e.from_account] = net.get(e.from_account, 0) - e.amount
                    net[e.to_account] = net.get(e.to_account, 0) + e.amount
                results = {r.player: r.net for r in await self.store.results(last.id)}
                assert results == {p: net.get(p, 0) for p in results}, "results match the ledger"

        self.run(check())


TestTables = Tables.TestCase
TestTables.settings = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
