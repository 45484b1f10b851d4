"""One game in the terminal: the person at seat 1, computer players in the other seats.

The loop asks the engine whose turn it is: a computer seat moves at once (`bot.games.ai.choose_action`, seeded
like the simulator, so `--seed` replays the whole game); the person is shown what a player at the Discord
table sees (the table message's board: every seat's chips or piles, the dice, the centre) and his own hand,
and types a move. After every move the public log lines of its events are printed, the same lines the bot
posts in the channel, so nothing hidden (another player's cards, the stock) is ever shown. Every word is in
the terminal's language (`locale`), refusals included: the engine's reason, worded by `bot.render.wording`.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from bot import render
from bot.games import ai
from bot.games.base import GameAction, GameEvent, GameState
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.i18n import join, resolve_locale, t
from bot.render.common import LogGroup, TableInfo
from bot.render.compose import compose, table_message
from bot.render.options import SESSION_OPTIONS, option_lines
from bot.render.registry import PRESENTATIONS
from bot.render.wording import refusal_text
from bot.terminal import moves
from bot.terminal.console import EXIT_INPUT_REFUSED, IDLE_LINES, Console
from bot.terminal.text import embed_text, message_text, plain, rules_text

HUMAN = moves.PLAYER  # a decimal id like a Discord user's, so the renderers treat him as one
WORDS = ("help", "hand", "table", "rules", "quit")
ALIASES = {"?": "help", "h": "help", "exit": "quit", "q": "quit"}  # leaving still asks for a yes
# A `code` quote of the bot's Discord texts, quoted as the reader's language writes it.
_CODE = re.compile(r"`([^`]*)`")
_QUOTES = {"de": ("„", "“")}


class TerminalGame:
    def __init__(
        self,
        kind: str,
        seats: int,
        seed: str,
        options: dict[str, Any],
        *,
        name: str,
        console: Console,
        locale: str = "en",
        again: str = "",
    ) -> None:
        self.kind = kind
        self.seed = seed
        self.locale = locale
        self.players = [HUMAN, *(f"ai:{i}" for i in range(1, seats))]
        self.game: GameState = REGISTRY[kind].new_game(self.players, seed, options)  # as at a table
        self.info = TableInfo(
            id=1,
            kind=kind,
            status="running",
            host_id=int(HUMAN),
            players=self.players,
            options=dict(options),
            commitment=self.game.seed_commitment,
        )
        self.names = {HUMAN: name}
        self.console = console
        self.again = again  # the command that plays another game like this one
        self._group: LogGroup | None = None
        self._step = 0
        # The words of this language, and the English ones, which work in every language.
        self.words = {t(locale, f"terminal.word.{w}"): w for w in WORDS} | {w: w for w in WORDS} | ALIASES
        self.yes = {t(locale, "terminal.word.yes"), "yes"}
        self.idle = 0  # piped lines in a row that made no move
        console.complete_with(self._completions)

    def word(self, which: str) -> str:
        return t(self.locale, f"terminal.word.{which}")

    def left_line(self) -> str:
        return t(self.locale, "terminal.left")

    def say(self, text: str = "") -> None:
        self.console.write(plain(text, self.names) + "\n")

    def _log(self, events: Sequence[GameEvent], lead: list[str] | None = None) -> None:
        if self.game.is_over:  # the result reveals the seed, as a finished table's does
            self.info = self.info.model_copy(update={"seed": self.seed, "status": "finished"})
        lines = render.log_lines(
            self.info,
            self.game.public_view(),
            events,
            current=self._group,
            lead=lead or [],
            locale=self.locale,
        )
        for line in lines:
            if line.group != self._group and line.text == line.group.title:
                self.say()  # a blank line before each new part of the game
            self._group = line.group
            self.say(line.text)

    # ---------------------------------------------------------------- what the person asks to see

    def _board(self) -> None:
        """The table message's board as a player in the channel sees it (no seed line, no hints)."""
        message = table_message(compose(self.info, self.game, locale=self.locale))
        for embed in message.embeds:
            self.say("\n".join(embed_text(embed, footer=False)))

    def _hand(self) -> None:
        message = render.hand_message(self.info, self.game, HUMAN, dm=True, locale=self.locale, picture=False)
        self.say(message_text(message, self.names))

    def _table(self) -> None:
        message = table_message(compose(self.info, self.game, locale=self.locale))
        self.say(message_text(message, self.names))

    def _rules(self) -> None:
        """The game's rules as this game has them (`--turns 40`: rule 17 says 40 turns), its options and
        house rules, and an ending that fits the terminal (where the Discord one names a slash command)."""
        summary = render.rules_summary(self.kind, self.locale, self.info.options)
        if summary is None:
            return
        layout = PRESENTATIONS[self.kind].rules
        lines = option_lines(
            REGISTRY[self.kind].options, layout, self.info.options, self.locale, skip=SESSION_OPTIONS
        )
        footer = t(self.locale, "terminal.rules_footer", command=f"cardtable-bot play {self.kind} --help")
        title = t(self.locale, "terminal.rules_options")
        summary = dataclasses.replace(summary, options_title=title, options=tuple(lines), footer=footer)
        self.say(rules_text(summary))

    def _help(self) -> None:
        numbered = not moves.asks_amount(self.game)
        self.say(t(self.locale, "terminal.moves") if numbered else t(self.locale, "terminal.moves_amount"))
        for i, entry in enumerate(moves.entries(self.game, self.locale), 1):
            number = f"{i:>3}. " if numbered else "   "
            self.say(f"{number}{entry.command:<22} {entry.description}")
        others = [self.word(w) for w in ("hand", "table", "rules", "quit")]
        self.say(t(self.locale, "terminal.also", words=join(self.locale, others)))

    def _completions(self) -> list[str]:
        legal = [] if self.game.is_over else moves.completions(self.game, self.locale)
        return [*legal, *(self.word(w) for w in WORDS), *self.yes]

    # ---------------------------------------------------------------- the game

    def play(self) -> int:
        """Play to the end (or until `quit` / end of input): exit code 0; 1 when the piped input kept being
        refused (`EXIT_INPUT_REFUSED`)."""
        game_name = render.game_name(self.kind, self.locale)
        self.say(t(self.locale, "terminal.start", game=game_name, name=self.names[HUMAN], seed=self.seed))
        opening = list(getattr(self.game, "opening_events", []))
        self._log(opening, lead=[render.start_line(self.info, locale=self.locale)])
        shown_at = -1
        while not self.game.is_over:
            player = self.game.current_player
            assert player is not None  # a game that is not over waits for someone
            if player != HUMAN:
                action = ai.choose_action(self.game, player, f"{self.seed}/{self._step}")
                self._step += 1
                self._log(self.game.apply(action))
                continue
            if shown_at != self._step:
                self.say()
                self._board()
                self.say()
                self._hand()
                shown_at = self._step
            events = self._ask()
            if events is None:
                return EXIT_INPUT_REFUSED if self.idle >= IDLE_LINES else 0
            self._step += 1
            self._log(events)
        self.say()
        self.say(t(self.locale, "terminal.over", command=self.again))
        self.say(t(self.locale, "terminal.replay", command=f"{self.again} --seed {self.seed}"))
        return 0

    def _ask(self) -> list[GameEvent] | None:
        """The events of the person's next legal move; None when he leaves, the input ends, or the piped input
        keeps making no move."""
        prompt = t(self.locale, "terminal.prompt", help=self.word("help"), quit=self.word("quit"))
        while True:
            line = self._line(prompt)
            if line is None:
                return None
            typed = " ".join(line.lower().split())
            if not typed:
                continue
            what = self.words.get(typed)
            if what == "quit":
                if self._leave():
                    return None
                continue
            if what is not None:
                {"help": self._help, "hand": self._hand, "table": self._table, "rules": self._rules}[what]()
                continue
            try:
                events = self._move(moves.read(line, self.game, self.locale, help_word=self.word("help")))
            except Refusal as refusal:
                self.say(self.quoted(refusal_text(refusal, self.locale)))
            except ValueError:  # options the game's action model rejects (a malformed action)
                self.say(t(self.locale, "table.not_an_action"))
            else:
                self.idle = 0
                return events

    def _line(self, prompt: str) -> str | None:
        """The next line, or None when the input ended or piped input made no move `IDLE_LINES` times in a
        row (the reason said)."""
        if not self.console.interactive and self.idle >= IDLE_LINES:
            refused = t(self.locale, "terminal.input_refused", n=IDLE_LINES, code=EXIT_INPUT_REFUSED)
            self.console.complain(plain(refused, self.names) + "\n")
            return None
        line = self.console.ask(prompt)
        if line is None:
            self.say()
            self.say(t(self.locale, "terminal.input_ended"))
            return None
        self.idle += 1  # until the line makes a move
        return line

    def _leave(self) -> bool:
        """Whether the person confirms leaving: only the word yes does (`ja` in German), which no move and
        no number is, so piped moves never leave a game by accident."""
        self.say(t(self.locale, "terminal.leave_ask", yes=t(self.locale, "terminal.word.yes")))
        answer = self._line(t(self.locale, "terminal.leave_prompt"))
        if answer is None:
            return True  # the input ended: there is no game to stay in
        if " ".join(answer.lower().split()) in self.yes:
            self.say(self.left_line())
            return True
        self.say(t(self.locale, "terminal.stay"))
        return False

    def quoted(self, text: str) -> str:
        """What the person typed, quoted in `code` on Discord, in the quotes of his language here."""
        opening, closing = _QUOTES.get(resolve_locale(self.locale), ("'", "'"))
        return _CODE.sub(lambda m: f"{opening}{m.group(1)}{closing}", text)

    def _move(self, action: GameAction) -> list[GameEvent]:
        # Tried on a copy: a refusal leaves the game exactly as it was, as a stored table's does.
        trial = copy.deepcopy(self.game)
        events = list(trial.apply(action))
        self.game = trial
        return events
