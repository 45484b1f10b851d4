"""Every refusal the two games can raise, each driven into and read in English and German (issue 20, part 3).

A refusal is `Refusal(key, **params)` (`IllegalAction` in the engines): a catalogue key and facts, worded for
each reader (`bot.render.wording`). The static check finds every `IllegalAction(`/`Refusal(` in the rules
and the command builders and asks that it names a catalogue key; the walk below drives the engines (and the
slash-command builders) into each refusing situation, one case per key at least, and checks that the cases
cover every key the sources raise. Each refusal must read as one sentence in both languages, the German one
with no English left in it: its own German text (not the English copied) and every placeholder filled.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.discord_out import discord_words
from bot.games.cards import Card
from bot.games.insomnia import Bid, EndGame, Exchange, InsomniaGame, Pass, Play, Rethrow
from bot.games.malice import EndGame as MaliceEndGame
from bot.games.malice import EndTurn, Resign
from bot.games.refusal import Refusal
from bot.i18n import catalogue
from bot.render.registry import PRESENTATIONS
from bot.render.wording import refusal_text
from tests.games.insomnia_helpers import act, pass_to, rig
from tests.games.malice_helpers import play, table

ROOT = Path(__file__).resolve().parents[2]
# Where refusals are raised: the rules, and the command builders (each game's presentation folder holds its
# own, `bot/render/commands.py` the shared card and number input).
SOURCES = sorted(
    {
        *(ROOT / "bot" / "games").rglob("*.py"),
        *(ROOT / "bot" / "render").glob("*/commands.py"),
        ROOT / "bot" / "render" / "commands.py",
    }
)
RAISERS = {"IllegalAction", "Refusal"}
# `number_input(key, text)` raises `Refusal(key, ...)` with its caller's key (the callers are checked
# instead); unpickling rebuilds a refusal with the key it had.
PASSED_ON = {("bot/render/commands.py", "refusal"), ("bot/games/refusal.py", "key")}


def _read(refusal: Refusal, locale: str) -> str:
    """A refusal's sentence as a Discord player reads it (its people drawn as mentions)."""
    return discord_words(refusal_text(refusal, locale))


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def raised_keys() -> tuple[set[str], set[str], list[str]]:
    """(every key a refusal is raised with, every key nested in one by `said`, what names no key)."""
    keys: set[str] = set()
    nested: set[str] = set()
    bad: list[str] = []
    for path in SOURCES:
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name, first = _name(node), node.args[0]
            if name not in (*RAISERS, "number_input", "said"):
                continue
            if isinstance(first, ast.Name) and (where, first.id) in PASSED_ON:
                continue
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                bad.append(f"{where}:{node.lineno}: {name}({ast.unparse(first)}, ...) names no literal key")
                continue
            if first.value not in catalogue():
                bad.append(f"{where}:{node.lineno}: {first.value!r} is not in the catalogue")
            (nested if name == "said" else keys).add(first.value)
    return keys, nested, bad


# --- the walk ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    attempt: Callable[[], object]  # raises the refusal
    english: str  # what an English reader gets


def malice(spec: str, action: object) -> Callable[[], object]:
    return lambda: table(spec).apply(action)


def malice_over() -> None:
    game = table("a hand: 5")
    game.apply(MaliceEndGame())
    game.apply(EndTurn())


def malice_command(spec: str, command: str, **params: object) -> Callable[[], object]:
    commands = PRESENTATIONS["malice"].commands
    assert commands is not None
    return lambda: commands.build_action(table(spec), command, dict(params), "a")


def malice_command_applied(spec: str, command: str, **params: object) -> Callable[[], object]:
    """The command's action, applied: where the builder leaves the refusal to the engine."""
    commands = PRESENTATIONS["malice"].commands
    assert commands is not None

    def attempt() -> object:
        game = table(spec)
        return game.apply(commands.build_action(game, command, dict(params), "a"))

    return attempt


P3 = ["p0", "p1", "p2"]
# p1 exchanges first, bids first and (holding a pair) leads the tricks with 9S: see test_insomnia_rules.py.
DEAL3 = {"p1": "AH AS 9S 10C", "p2": "KH QS JD 9D", "p0": "QH JH 9H KC"}


def insomnia(*moves: str, phase: str | None = None, chips: int | dict[str, int] = 15) -> InsomniaGame:
    game = rig(P3, DEAL3, "A A A A", chips=chips)
    if phase is not None:
        pass_to(game, phase)
    act(game, *moves)
    return game


def insomnia_tries(
    action: object, *moves: str, phase: str | None = None, chips: int | dict[str, int] = 15
) -> Callable[[], object]:
    return lambda: insomnia(*moves, phase=phase, chips=chips).apply(action)


def insomnia_over() -> None:
    game = insomnia()
    game.apply(EndGame())
    game.apply(Pass())


def no_auction() -> None:
    game = insomnia(phase="auction")
    game.auction = None  # the auction phase always has one: reached only by a broken state
    game.apply(Bid(amount=1))


def no_bid() -> None:
    game = insomnia(phase="auction")
    game._auction_won([])  # the auction is won only after a bid: reached only by calling it too early


def insomnia_command(command: str, **params: object) -> Callable[[], object]:
    commands = PRESENTATIONS["insomnia"].commands
    assert commands is not None
    return lambda: commands.build_action(insomnia(), command, dict(params), "p1")


def insomnia_rethrow_command(**params: object) -> Callable[[], object]:
    """A rethrow command of the auction's winner at his re-throws: the die's range is the reason only there
    (elsewhere the phase's reason says more)."""
    commands = PRESENTATIONS["insomnia"].commands
    assert commands is not None

    def attempt() -> object:
        game = insomnia("bid 1", "pass", "pass", phase="auction")
        player = game.current_player
        assert player is not None and any(a.kind == "rethrow" for a in game.legal_actions())
        return commands.build_action(game, "rethrow", dict(params), player)

    return attempt


def insomnia_command_applied(command: str, **params: object) -> Callable[[], object]:
    """The command's action at the auction, applied: where the builder leaves the refusal to the engine."""
    commands = PRESENTATIONS["insomnia"].commands
    assert commands is not None

    def attempt() -> object:
        game = insomnia(phase="auction")
        return game.apply(commands.build_action(game, command, dict(params), "p1"))

    return attempt


SIDES_FULL = "centre: A | A | A | A\na hand: {card} 5\na side: {side}"

CASES = [
    # Malice: the engine
    Case(
        "malice-garbage",
        malice("a hand: 5", {"kind": "fold"}),
        "That is not an action here: choose one of the offered actions.",
    ),
    Case("malice-over", malice_over, "The game is over."),
    Case(
        "malice-end-before-ace",
        malice("a hand: A 5", EndTurn()),
        "You must first play your ace to the centre.",
    ),
    Case(
        "malice-side-before-ace",
        malice("a hand: A 5", play("5", to="side1")),
        "You must first play your ace to the centre.",
    ),
    Case(
        "malice-side-play-first",
        lambda: table("a hand: 9 5", discard="required").apply(EndTurn()),
        "At this table a card that fits one of your side stacks must go there to end your turn.",
    ),
    Case("malice-resign-stranger", malice("", Resign(player="42")), "<@42> is not playing in this game."),
    Case(
        "malice-no-card",
        malice("a hand: 9", play(None, to="centre1")),
        "Say which card from your hand you play.",
    ),
    Case("malice-not-held", malice("a hand: 9", play("Q", to="centre1")), "You do not hold Q♠."),
    Case(
        "malice-payoff-shows",
        malice("centre: A\na payoff: K 2", play("3", source="payoff")),
        "Your payoff pile shows 2♠, not 3♠.",
    ),
    Case(
        "malice-payoff-to-side",
        malice("a payoff: K 2", play("2", source="payoff", to="side1")),
        "Your payoff card can only go to the centre.",
    ),
    Case("malice-side-empty", malice("centre: A", play("2", source="side3")), "Your side stack 3 is empty."),
    Case(
        "malice-side-shows",
        malice("centre: A\na side: 2 5", play("2", source="side1")),
        "Your side stack 1 shows 5♠, not 2♠.",
    ),
    Case(
        "malice-side-to-side",
        malice("a side: 5 | 5", play("5", source="side1", to="side2")),
        "Cards cannot move from one side stack to another: play from your hand.",
    ),
    Case(
        "malice-joker-starts",
        malice("a hand: JK", play("JK", to="centre1", as_rank="5")),
        "A joker on a free centre slot starts the stack as an ace.",
    ),
    Case(
        "malice-joker-only",
        malice("centre: A 2 3\na hand: JK", play("JK", to="centre1", as_rank="5")),
        "On centre stack 1 the joker can only be a 4.",
    ),
    Case(
        "malice-rank-for-joker",
        malice("centre: A 2 3 4\na hand: 5", play("5", to="centre1", as_rank="6")),
        "Only a joker can be played as another rank.",
    ),
    Case(
        "malice-leave-rank-out",
        malice("centre: A 2 3 4\na hand: 5", play("5", to="centre1", as_rank="5")),
        "Only a joker takes a rank on the centre: leave the rank out for a 5.",
    ),
    Case(
        "malice-ace-starts",
        malice("a hand: 2", play("2", to="centre1")),
        "Only an ace, or a joker as an ace, can start a centre stack.",
    ),
    Case(
        "malice-centre-needs",
        malice("centre: A 2 3 4 5\na hand: 7", play("7", to="centre1")),
        "You cannot put 7♠ on centre stack 1: it needs a 6 (or a joker).",
    ),
    Case(
        "malice-ace-on-side",
        malice("centre: A | A | A | A\na hand: A 9", play("A", to="side1")),
        "An ace can never go on a side stack.",
    ),
    Case(
        "malice-side-rank",
        malice("a hand: 9 5", play("9", to="side1", as_rank="9")),
        "A card on a side stack keeps its own rank: leave the rank out.",
    ),
    Case(
        "malice-side-takes-two",
        malice(SIDES_FULL.format(card="K", side="Q"), play("K", to="side1")),
        "You cannot put K♠ on side stack 1, which shows a queen: play a queen or a jack there.",
    ),
    Case(
        "malice-side-takes-one",
        malice(SIDES_FULL.format(card="3", side="2"), play("3", to="side1")),
        "You cannot put 3♠ on side stack 1, which shows a 2: play a 2 there.",
    ),
    Case(
        "malice-side-under-joker",
        malice(SIDES_FULL.format(card="7", side="9 JK"), play("7", to="side1")),
        "You cannot put 7♠ on side stack 1, which shows a 9 under a joker: play a 9 or an 8 there.",
    ),
    # Malice: /malice play's options
    Case("malice-command-unknown", malice_command("a hand: 5", "fold"), "Unknown Malice action fold."),
    Case(
        "malice-command-where",
        malice_command("a hand: 5", "play", card="5S"),
        "Say where the card goes: centre, centre1-centre4 or side1-side4.",
    ),
    Case(
        "malice-command-not-a-place",
        malice_command("a hand: 5", "play", card="5S", to="nowhere"),
        "'nowhere' is not a place: say centre, centre1-centre4 or side1-side4.",
    ),
    # A card not held or an empty pile, to any centre stack: the engine's reason, not "no stack takes it".
    Case(
        "malice-command-empty-side-to-centre",
        malice_command_applied("a hand: 5", "play", card="side1", to="centre"),
        "Your side stack 1 is empty.",
    ),
    Case(
        "malice-command-centre-not-held",
        malice_command_applied("a hand: 5", "play", card="QH", to="centre"),
        "You do not hold Q♥.",
    ),
    Case(
        "malice-command-not-a-card",
        malice_command("a hand: 5", "play", card="ZZ", to="centre"),
        "'zz' is not a card: write it like AS, 10H, 9♦ or JK.",
    ),
    Case(
        "malice-command-no-centre",
        malice_command("a hand: Q", "play", card="QS", to="centre"),
        "Q♠ cannot go on any centre stack now.",
    ),
    Case(
        "malice-command-payoff-no-centre",
        malice_command("a hand: 5", "play", card="payoff", to="centre"),
        "The top of your payoff cannot go on any centre stack now.",
    ),
    Case(
        "malice-command-side-no-centre",
        malice_command("a hand: 5\na side: 9", "play", card="side1", to="centre"),
        "The top of your side1 cannot go on any centre stack now.",
    ),
    # Insomnia: the engine
    Case(
        "insomnia-garbage",
        insomnia_tries({"kind": "fold"}),
        "That is not an action here: choose one of the offered actions.",
    ),
    Case("insomnia-over", insomnia_over, "The game is over."),
    Case(
        "insomnia-exchange-not-held",
        insomnia_tries(Exchange(card="QH")),
        "You do not hold Q♥: exchange a card from your hand, or pass.",
    ),
    Case(
        "insomnia-exchange-bid",
        insomnia_tries(Bid(amount=1)),
        "It is the exchange: exchange a card from your hand, or pass.",
    ),
    Case(
        "insomnia-bid-zero", insomnia_tries(Bid(amount=0), phase="auction"), "Bid at least 1 chip, or pass."
    ),
    Case(
        "insomnia-bid-equal",
        insomnia_tries(Bid(amount=3), "bid 3", phase="auction"),
        "Bid more than 3 chips, or pass.",
    ),
    Case(
        "insomnia-bid-equal-one",
        insomnia_tries(Bid(amount=1), "bid 1", phase="auction"),
        "Bid more than 1 chip, or pass.",
    ),
    Case(
        "insomnia-bid-over-chips",
        insomnia_tries(Bid(amount=5), "bid 2", phase="auction", chips={"p0": 15, "p1": 15, "p2": 4}),
        "You have only 4 chips: bid at most 4, or pass.",
    ),
    Case(
        "insomnia-cannot-outbid",
        insomnia_tries(
            Bid(amount=6),
            "bid 2",
            "bid 4",
            "bid 5",
            "pass",
            phase="auction",
            chips={"p0": 15, "p1": 15, "p2": 4},
        ),
        "You cannot outbid 5 with 4 chips: pass.",
    ),
    Case(
        "insomnia-auction-play-cannot-outbid",
        insomnia_tries(
            Play(card="KH"),
            "bid 2",
            "bid 4",
            "bid 5",
            "pass",
            phase="auction",
            chips={"p0": 15, "p1": 15, "p2": 4},
        ),
        "It is the auction for re-throws: you cannot outbid 5 with 4 chips, so pass.",
    ),
    Case(
        "insomnia-auction-play",
        insomnia_tries(Play(card="AH"), phase="auction"),
        "It is the auction for re-throws: bid more chips than the highest bid, or pass.",
    ),
    Case("insomnia-no-auction", no_auction, "There is no auction now."),
    Case("insomnia-no-bid", no_bid, "Nobody has bid in this auction."),
    Case(
        "insomnia-die-five",
        insomnia_tries(Rethrow(die=5), "bid 1", "pass", "pass", phase="auction"),
        "Choose a die from 1 to 4 to throw again, or pass to stop.",
    ),
    Case(
        "insomnia-rethrow-bid",
        insomnia_tries(Bid(amount=2), "bid 1", "pass", "pass", phase="auction"),
        "Choose a die to throw again, or pass to stop re-throwing.",
    ),
    Case(
        "insomnia-tricks-pass",
        insomnia_tries(Pass(), phase="tricks"),
        "It is your turn in the tricks: play a card.",
    ),
    Case(
        "insomnia-follow-suit",
        insomnia_tries(Play(card="KH"), "9S", phase="tricks"),
        "You must follow suit: you hold a spade.",
    ),
    Case(
        "insomnia-play-not-held",
        insomnia_tries(Play(card="AS"), "9S", "QS", phase="tricks"),
        "You do not hold A♠: play a card from your hand.",
    ),
    # Insomnia: the /insomnia commands' options
    Case("insomnia-command-unknown", insomnia_command("fold"), "Unknown Insomnia action fold."),
    Case(
        "insomnia-command-not-a-card",
        insomnia_command("exchange", card="ZZ"),
        "'ZZ' is not a card: write it like AS, 10H, 9♦ or JK.",
    ),
    Case(
        "insomnia-command-not-a-bid",
        insomnia_command("bid", amount="lots"),
        "`lots` is not a bid: give a whole number.",
    ),
    # A whole number is a number, however large or negative: the rules say what is allowed.
    Case(
        "insomnia-command-huge-bid",
        insomnia_command_applied("bid", amount="99999999999999"),
        "You have only 15 chips: bid at most 15, or pass.",
    ),
    Case(
        "insomnia-command-negative-bid",
        insomnia_command_applied("bid", amount="-3"),
        "Bid at least 1 chip, or pass.",
    ),
    Case(
        "insomnia-command-negative-die",
        insomnia_rethrow_command(die="-3"),
        "There are four dice: name one from 1 to 4, left to right.",
    ),
    Case(
        "insomnia-command-not-a-die",
        insomnia_command("rethrow", die="x"),
        "`x` is not a die number: give a whole number.",
    ),
    Case(
        "insomnia-command-four-dice",
        insomnia_rethrow_command(die="7"),
        "There are four dice: name one from 1 to 4, left to right.",
    ),
]


def refusal_of(case: Case) -> Refusal:
    with pytest.raises(Refusal) as caught:
        case.attempt()
    return caught.value


def _texts(key: str, lang: str) -> tuple[str, ...]:
    message = catalogue().catalogs[lang][key]  # type: ignore[index]
    return tuple(message.string) if message.pluralizable else (message.string,)


def _placeholders(texts: tuple[str, ...]) -> set[str]:
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field}


# --- the tests --------------------------------------------------------------------------------------------


def test_every_refusal_in_the_rules_and_the_command_builders_names_a_catalogue_key():
    keys, nested, bad = raised_keys()
    assert not bad, "\n".join(bad)
    assert len(keys) >= 40 and "malice.refusal.payoff_to_centre" in keys and "malice.refusal.either" in nested


def test_the_walk_reaches_every_refusal_the_sources_raise():
    keys, _, _ = raised_keys()
    walked = {refusal_of(case).key for case in CASES}
    assert walked == keys, f"not walked: {sorted(keys - walked)}; not raised: {sorted(walked - keys)}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_each_refusal_reads_as_one_sentence_in_english_and_in_german(case):
    refusal = refusal_of(case)
    english, german = _read(refusal, "en"), _read(refusal, "de-DE")
    assert english == case.english
    assert german != english and not german[:1].islower() and german.endswith("."), german
    for text in (english, german):
        assert "{" not in text and "}" not in text, f"a placeholder left unfilled: {text!r}"
    # The key's German text is its own, every fact the refusal carries is shown, in both languages.
    en, de = _texts(refusal.key, "en"), _texts(refusal.key, "de")
    assert set(en).isdisjoint(de), f"{refusal.key}: German copied from English"
    assert _placeholders(en) == _placeholders(de) == set(refusal.params), refusal


# The refusals issue 20 found English for a German player, as a German player reads them now.
QUOTED = {
    "malice-payoff-to-side": "Deine Zahlstapelkarte darf nur in die Mitte.",
    "malice-not-held": "Du hast D♠ nicht auf der Hand.",  # was "You do not hold a queen (Q♠)."
    "malice-end-before-ace": "Du musst zuerst dein Ass in die Mitte legen.",
    "insomnia-exchange-bid": "Jetzt wird getauscht: tausche eine Karte von deiner Hand oder passe.",
}


@pytest.mark.parametrize(("case_id", "german"), QUOTED.items())
def test_the_refusals_quoted_in_issue_20_read_in_german(case_id, german):
    (case,) = [c for c in CASES if c.id == case_id]
    assert _read(refusal_of(case), "de") == german


def test_facts_are_worded_in_the_readers_notation():
    """A card in German notation, a rank with its German article, a player by his mention, a plural."""
    by_id = {case.id: refusal_of(case) for case in CASES}
    assert _read(by_id["malice-side-takes-two"], "de") == (
        "Du kannst K♠ nicht auf Seitenstapel 1 legen: oben liegt eine Dame, dort passt nur eine Dame oder "
        "ein Bube."
    )
    assert _read(by_id["malice-resign-stranger"], "de") == "<@42> spielt in diesem Spiel nicht mit."
    assert _read(by_id["insomnia-bid-equal-one"], "de") == "Biete mehr als 1 Chip oder passe."
    follow = _read(by_id["insomnia-follow-suit"], "de")
    assert follow == "Du musst Farbe bedienen: du hast Pik auf der Hand."
    assert _read(by_id["malice-command-unknown"], "de") == "Unbekannter Malice-Zug fold."
    assert by_id["malice-not-held"].params == {"card": Card.parse("QS")}  # a fact, not words
    assert str(by_id["malice-not-held"]) == "malice.refusal.not_in_hand(card=Card('QS'))"  # for the log
