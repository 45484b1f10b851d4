"""One game in the terminal: the person at seat 1, computer players in the other seats.

The loop asks the engine whose turn it is: a computer seat moves at once (`bot.games.ai.choose_action`, seeded
like the simulator, so `--seed` replays the whole game); the person is shown his hand and types a move. After
every move the public log lines of its events are printed, the same lines the bot posts in the channel, so
nothing hidden (another player's cards, the stock) is ever shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot import render
from bot.games import ai
from bot.games.base import GameAction, GameEvent
from bot.games.registry import REGISTRY
from bot.render.common import LogGroup, TableInfo
from bot.terminal import moves
from bot.terminal.text import message_text, plain

HUMAN = "1"  # the person's player id: a decimal id like a Discord user's, so the renderers treat him as one
QUIT = {"quit", "exit", "q"}
HELP = {"help", "?", "h"}


class TerminalGame:
    def __init__(
        self,
        kind: str,
        seats: int,
        seed: str,
        options: dict[str, Any],
        *,
        name: str,
        read: Callable[[], str],
        write: Callable[[str], Any],
        echo: bool = False,
    ) -> None:
        self.kind = kind
        self.seed = seed
        self.players = [HUMAN, *(f"ai:{i}" for i in range(1, seats))]
        self.game = REGISTRY[kind].new_game(self.players, seed, options)  # table options, as at a table
        self.info = TableInfo(
            id=1, kind=kind, status="running", host_id=int(HUMAN), players=self.players,
            options=dict(options), commitment=self.game.seed_commitment,
        )
        self.names = {HUMAN: name}
        self._read = read
        self._write = write
        self._echo = echo  # piped input is not shown by a terminal: print it, so the transcript reads right
        self._group: LogGroup | None = None
        self._step = 0

    def say(self, text: str = "") -> None:
        self._write(plain(text, self.names) + "\n")

    def _log(self, events: Sequence[GameEvent], lead: list[str] | None = None) -> None:
        if self.game.is_over:  # the result reveals the seed, as a finished table's does
            self.info = self.info.model_copy(update={"seed": self.seed, "status": "finished"})
        lines = render.log_lines(
            self.info, self.game.public_view(), events, current=self._group, lead=lead or []
        )
        for line in lines:
            if line.group != self._group and line.text == line.group.title:
                self.say()  # a blank line before each new part of the game
            self._group = line.group
            self.say(line.text)

    def _hand(self) -> None:
        self.say(message_text(render.hand_message(self.info, self.game, HUMAN, dm=True), self.names))

    def _help(self) -> None:
        self.say("Your legal moves (type the move or its number):")
        for i, action in enumerate(self.game.legal_actions(), 1):
            self.say(f"  {i:>2}. {moves.command(action, self.game):<22} {moves.describe(action, self.game)}")
        self.say("Also: hand, table, quit.")

    def play(self) -> int:
        """Play to the end (or until `quit` / end of input); the exit code is 0 either way."""
        you = self.names[HUMAN]
        self.say(f"{self.kind.capitalize()} in the terminal: you are {you}, seat 1. Seed {self.seed}.")
        opening = list(getattr(self.game, "opening_events", []))
        self._log(opening, lead=[render.start_line(self.info)])
        shown_hand_at = -1
        while not self.game.is_over:
            player = self.game.current_player
            assert player is not None  # a game that is not over waits for someone
            action: GameAction | None
            if player != HUMAN:
                action = ai.choose_action(self.game, player, f"{self.seed}/{self._step}")
            else:
                if shown_hand_at != self._step:
                    self.say()
                    self._hand()
                    shown_hand_at = self._step
                action = self._ask()
                if action is None:
                    return 0
            self._step += 1
            self._log(self.game.apply(action))
        self.say()
        self.say("The game is over. Play again with: cardtable-bot play " + self.kind)
        return 0

    def _ask(self) -> GameAction | None:
        """The person's next legal move; None when he quits or the input ends."""
        while True:
            self._write("your move (help, quit)> ")
            line = self._read()
            if not line:  # end of input
                self.say("\nInput ended: the game is left unfinished.")
                return None
            typed = line.strip()
            if self._echo:
                self._write(typed + "\n")
            word = typed.lower()
            if not word:
                continue
            if word in QUIT:
                self.say("You left the game.")
                return None
            if word in HELP:
                self._help()
                continue
            if word == "hand":
                self._hand()
                continue
            if word == "table":
                self.say(message_text(render.table_message(self.info, self.game), self.names))
                continue
            action: GameAction | None = moves.parse(typed, self.game.legal_actions(), self.game)
            if action is not None:
                return action
            self.say(f"'{typed}' is not a legal move now: type help for the list.")
