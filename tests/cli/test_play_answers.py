"""`cardtable-bot play`: what the terminal game answers, as a new player meets it (issue 34).

Leaving is never one word away from a move; every refused line names its real reason and what may be typed
now; piped input that keeps being refused ends the game; `rules` ends the terminal's way; and a German
terminal answers in German only. Every run is `python -m bot play` as a process (tests/cli/terminal.py).
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

from bot.i18n import catalogue
from bot.terminal.text import unmarked
from tests.cli.terminal import Conversation, play, play_env

GERMAN = {"LANG": "de_DE.UTF-8"}
GERMAN_PROMPT = "dein Zug (hilfe, verlassen)> "


# ---------------------------------------------------------------- leaving


def test_leaving_is_never_one_word_away_from_ending_a_turn(tmp_path: Path) -> None:
    # The issue's own input: `ende` used to leave the game at once, one word from `beenden` (end the turn).
    typed = "legen ah mitte1\nlegen ap mitte2\nende\n"
    done = play("malice", "--seed", "3", cwd=tmp_path, input=typed, **GERMAN)
    assert done.returncode == 0, done.stderr
    assert "„ende“ ist hier kein Zug." in done.stdout
    assert "Du hast das Spiel verlassen." not in done.stdout
    game = Conversation("malice", "--seed", "3", cwd=tmp_path, prompt=GERMAN_PROMPT, **GERMAN)
    try:
        game.say("legen ah mitte1")
        game.prompt = "Spiel verlassen? > "  # the leave word asks, with a prompt of its own
        assert "Das Spiel unbeendet verlassen? Tippe ja zum Verlassen" in game.say("verlassen")
        game.prompt = GERMAN_PROMPT
        # Anything but yes goes back to the game, and is no move: a piped move never confirms by accident.
        stayed = game.say("1")
        assert "Du bleibst im Spiel." in stayed and "legt" not in stayed
        assert "Spieler legt A♠ aus der Hand auf Mittelstapel 2." in game.say("legen ap mitte")
        game.prompt = "Spiel verlassen? > "
        game.say("verlassen")
        game.prompt = GERMAN_PROMPT
        assert game.say("ja").rstrip().endswith("Du hast das Spiel verlassen.")
        assert game.process.wait(timeout=30) == 0
    finally:
        game.close()
    # English: quit, then a move or a number stays; only yes leaves.
    done = play("malice", "--seed", "3", cwd=tmp_path, input="quit\n1\nquit\ny\nquit\nyes\n")
    assert done.stdout.count("Leave the game unfinished? Type yes to leave") == 3
    assert done.stdout.count("You stay in the game.") == 2
    assert "Player plays A♥ from the hand to centre 1." not in done.stdout  # the `1` answered the question
    assert done.stdout.rstrip().endswith("You left the game.")


# ---------------------------------------------------------------- refusals


def test_each_refusal_names_its_real_reason(tmp_path: Path) -> None:
    malice = Conversation("malice", "--seed", "3", cwd=tmp_path)  # Player holds 8♥ A♥ A♠ 9♣ Q♥
    try:
        assert "You do not hold 2♣." in malice.say("play 2c centre")
        now = "You may type now: play <card> <to> (like play ah centre1); help lists them all."
        for line, other in (("bid 8", "bid"), ("exchange kh", "exchange"), ("pass", "pass")):
            assert f"'{other}' is a move of Insomnia, not of Malice. {now}" in malice.say(line)
        assert f"'blah' is not a move here. {now}" in malice.say("blah")
        assert "Say where the card goes: centre, centre1-centre4 or side1-side4." in malice.say(
            "play jack of clubs"
        )
        assert "'clubs' is not a place: say centre" in malice.say("play ah clubs")
        assert "Your side stack 1 is empty." in malice.say("play side1 centre")  # not "no stack takes it"
        assert "end takes nothing after it: type end alone." in malice.say("end now")
    finally:
        malice.close()
    insomnia = Conversation("insomnia", "--players", "2", "--seed", "4", cwd=tmp_path)
    try:
        assert "'end' is a move of Malice, not of Insomnia." in insomnia.say("end")
        insomnia.say("pass")  # the auction: Player bids first, holding 15 chips
        assert "'blah' is not a move here. You may type now: bid 1 to 15 or pass" in insomnia.say("blah")
        assert "You have only 15 chips: bid at most 15, or pass." in insomnia.say("bid 99999999999999")
        assert "Bid at least 1 chip, or pass." in insomnia.say("bid -3")
        assert "Bid at least 1 chip, or pass." in insomnia.say("-3")  # a number alone is the amount
        assert "'play' is not a move now. You may type now: bid 1 to 15 or pass" in insomnia.say("play")
    finally:
        insomnia.close()


def test_the_words_of_the_insomnia_prompts_are_moves_and_pass_says_what_it_does(tmp_path: Path) -> None:
    """The exchange's prompt says "exchange a card or keep your hand": `keep` keeps it. In the auction `help`
    says what `pass` does there (not "pass  pass"), and `rethrow 5` gets the auction's reason, as `rethrow 2`
    does, not the dice's range. In German alike (`behalten`, `passen`)."""
    insomnia = Conversation("insomnia", "--players", "2", "--seed", "4", cwd=tmp_path)
    try:
        kept = insomnia.say("keep")
        assert "Player keeps the hand." in kept and "not a move" not in kept
        moves = insomnia.say("help")  # the auction: Player bids first
        described = r"^ +pass +bid nothing this time \(you may bid again on a later turn\)$"
        assert re.search(described, moves, re.M)
        auction = "It is the auction for re-throws: bid more chips than the highest bid, or pass."
        assert auction in insomnia.say("rethrow 2")
        assert auction in insomnia.say("rethrow 5")
    finally:
        insomnia.close()
    german = Conversation(
        "insomnia", "--players", "2", "--seed", "4", cwd=tmp_path, prompt=GERMAN_PROMPT, **GERMAN
    )
    try:
        assert "Spieler behält die Hand." in german.say("behalten")
        moves = german.say("hilfe")
        assert re.search(r"^ +passen +diesmal nichts bieten \(später darfst du wieder bieten\)$", moves, re.M)
        answer = german.say("nachwerfen 2").split("\n", 1)[1]  # past the echoed line
        assert "Versteigerung" in answer and german.say("nachwerfen 5").split("\n", 1)[1] == answer
    finally:
        german.close()


def test_piped_input_that_keeps_being_refused_ends_the_game_with_exit_1(tmp_path: Path) -> None:
    """The issue's command: `1` bids 1, refused once someone bid more, forever."""
    command = f"yes 1 | {sys.executable} -m bot play insomnia --seed 5 --players 4"
    done = subprocess.run(
        ["sh", "-c", command], cwd=tmp_path, env=play_env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    # Why it stopped is said on standard error, once, apart from the game's transcript on standard output.
    assert done.stderr == (
        "20 lines in a row made no move: the game stops here (exit code 1). Piped moves must be legal "
        "moves.\n"
    )
    assert "20 lines in a row" not in done.stdout
    assert len(done.stdout.splitlines()) < 500


# ---------------------------------------------------------------- rules


def test_rules_end_with_the_terminals_own_footer_and_this_games_options(tmp_path: Path) -> None:
    done = play("malice", "--seed", "3", "--turns", "40", cwd=tmp_path, input="rules\n")
    rules = done.stdout.split("> rules\n", 1)[1]
    assert "a game that reaches 40 turns ends" in rules  # the rules as this game has them
    assert "This game\n" in rules and "H5 (house rule) Turn cap: 40 turns" in rules
    ending = "Options and house rules of a new game: cardtable-bot play malice --help · Full rules:"
    assert f"\n{ending} docs/rules.md\n" in rules
    assert "Challenge someone" not in rules and "/malice" not in rules
    done = play("insomnia", "--seed", "3", cwd=tmp_path, input="rules\n")
    assert "cardtable-bot play insomnia --help · Full rules: docs/rules.md" in done.stdout
    assert "Start a table" not in done.stdout
    # German: the German session below reads both games' rules in German.


# ---------------------------------------------------------------- the German terminal: German only

# Every line a German player can type, commands of both games in both languages and each refusal; a legal
# move (`1`) every few lines, so the piped input never looks stuck.
TRIES = {
    "malice": [
        "hilfe",
        "hand",
        "tisch",
        "regeln",
        "blah",
        "ende",
        "beenden",
        "legen",
        "legen kreuz bube",
        "legen ah seitlich",
        "legen xx seite1",
        "legen 2c mitte",
        "99",
        "0",
        "1",
        "bieten 8",
        "tauschen kh",
        "ausspielen kreuz bube",
        "passen",
        "nachwerfen 2",
        "bid 8",
        "exchange kh",
        "pass",
        "rethrow 1",
        "play",
        "end",
        "verlassen",
        "nein",
        "1",
        "legen P D seite1",
        "legen Kr 9 seite1",
        "legen zahlstapel mitte",
        "legen seite1 mitte",
        "legen seite4 seite1",
        "-3",
        "?",
        "1",
        "quit",
        "nein",
        "q",
        "nein",
        "exit",
        "",
        "h",
        "beenden jetzt",
        "1",
    ],
    "insomnia": [
        "hilfe",
        "hand",
        "tisch",
        "regeln",
        "blah",
        "beenden",
        "legen ah mitte1",
        "bieten 8",
        "nachwerfen 2",
        "ausspielen kh",
        "tauschen zz",
        "tauschen 2h",
        "tauschen",
        "bid 8",
        "1",
        "passen",
        "bieten 99999999999999",
        "bieten -3",
        "bieten viel",
        "-3",
        "0",
        "99",
        "ausspielen",
        "tauschen kh",
        "verlassen",
        "nein",
        "end",
        "bieten 1",
        "nachwerfen",
        "nachwerfen x",
        "nachwerfen 7",
        "nachwerfen 0",
        "bieten 3",
        "ausspielen kh",
        "passen",
        "passen",
        "ausspielen zz",
        "nachwerfen 1",
        "tauschen kh",
        "ausspielen 2h",
    ],
}
PLAY_ON = {"malice": "1\n", "insomnia": "1\npassen\n"}  # then to the end
# English words no German answer has (names, `Seed`, `Computer` and the command lines are left out).
ENGLISH_WORDS = re.compile(
    r"\b(the|you|your|is|are|not|move|moves|card|cards|turn|plays|centre|side|quit|help|table|rules|with|"
    r"pass|passes|bid|bids|stack|stage|deal|trick|tricks|game|over|wins|again|left|type|input|player|yes|"
    r"stock|payoff|hold|choose|dice|round|house)\b",
    re.IGNORECASE,
)


def _english_phrases() -> list[str]:
    """Every English-only phrase of the catalogue: each text between its placeholders, with two or more
    words, that no German text has."""
    catalogs = catalogue().catalogs  # type: ignore[attr-defined]

    def texts(lang: str) -> dict[str, tuple[str, ...]]:
        out = {}
        for m in catalogs[lang]:
            if m.id:
                out[m.id[0] if m.pluralizable else m.id] = tuple(m.string) if m.pluralizable else (m.string,)
        return out

    english, german = texts("en"), texts("de")
    all_german = "\n".join(unmarked(text) for forms in german.values() for text in forms)
    phrases = set()
    for key, forms in english.items():
        if forms == german.get(key):
            continue
        for text in forms:
            for literal, *_ in string.Formatter().parse(text):
                piece = unmarked(literal).strip(" .,:;!?()·•-–'\"\n")
                if len(re.findall(r"[A-Za-z]{3,}", piece)) >= 2 and piece not in all_german:
                    phrases.add(piece)
    return sorted(phrases)


def _answers(out: str) -> str:
    """What the game said: each prompt's echo of the typed line, quotes of it („…“), command lines to type
    (`cardtable-bot play …`) and the rules' file name left out."""
    lines = []
    for line in out.splitlines():
        for prompt in (GERMAN_PROMPT, "Spiel verlassen? > "):
            if line.startswith(prompt):
                line = ""
        line = re.sub(r"„[^“]*“", "„“", line)
        line = re.sub(r"cardtable-bot [^·]*", "", line).replace("docs/rules.md", "")
        lines.append(line)
    return "\n".join(lines)


def test_a_german_terminal_answers_every_command_and_refusal_in_german(tmp_path: Path) -> None:
    phrases = _english_phrases()
    assert len(phrases) > 300  # the check has teeth: the English catalogue's phrases
    for game, args in (("malice", ["--turns", "40"]), ("insomnia", ["--players", "2", "--deals", "1"])):
        script = "\n".join(TRIES[game]) + "\n" + PLAY_ON[game] * 400
        done = play(game, "--seed", "4", *args, cwd=tmp_path, input=script, **GERMAN)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        said = _answers(done.stdout)
        assert "Das Spiel ist vorbei." in said, said[-2000:]  # played to the end: its result read too
        assert f"{game.capitalize()} im Terminal: du bist Spieler, Platz 1." in said  # the default name
        ending = f"Optionen und Tischregeln eines neuen Spiels: cardtable-bot play {game} --help"
        assert f"{ending} · Alle Regeln: docs/rules.md" in done.stdout  # the rules' ending, in German
        left = [phrase for phrase in phrases if phrase in said]
        assert not left, f"{game}: English phrases in the German answers: {left}"
        words = sorted({m.group(0) for m in ENGLISH_WORDS.finditer(said)})
        assert not words, f"{game}: English words in the German answers: {words}"
        assert not re.findall(r"'[^'\n]+'|\"[^\"\n]+\"", said), "German quotes are „…“"
        assert "„p d“ ist keine Karte" not in done.stdout and "„kr 9“ ist keine Karte" not in done.stdout
        # Every kind of answer was met, so the check covered them.
        for answer in (
            "ist hier kein Zug. Jetzt geht:",
            "ist ein Zug von",
            "ist keine Karte",
            "Du bleibst im Spiel.",
            "Deine Züge",
            "Tippe ihn mit allem, was er braucht",
        ):
            assert answer in done.stdout, (game, answer)
    # Piped input that never makes a move: the game gives up on it, in German too.
    done = play("malice", "--seed", "4", cwd=tmp_path, input="xyz\n" * 30, **GERMAN)
    assert done.returncode == 1
    said = _answers(done.stdout)
    stopped = "20 Zeilen hintereinander waren kein Zug: das Spiel endet hier (Exit-Code 1)."
    assert done.stderr == f"{stopped} Über eine Pipe eingegebene Züge müssen erlaubt sein.\n"
    assert not [phrase for phrase in phrases if phrase in said] and not ENGLISH_WORDS.search(said)
