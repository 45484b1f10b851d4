"""How a picture names players and cards in words (its labels and its alt text), in the reader's language.

A picture cannot show a Discord mention (it renders only in text), so a person is named by his display
name (`TableInfo.names`, filled by the caller from the stored seats), a computer player as the text does
("Computer 2"), and a person whose name the bot never saw by his seat ("Player 3"), never by an id. Drawn
labels are the name as typed, less the letters of scripts the shipped font lacks (`text.printable`: Chinese,
emoji); a name of which nothing is left is drawn by its number ("No. 3"), never as "Player 3". The alt text
keeps the name as it is, for screen readers.

One rule cuts every name on every picture (`shorten`, through `SeatNames` on a table, the hand and the result
card, `Labels` on a tournament's standings and bracket): a drawn label names one seat only. Two labels that
would read alike ("Anna 🎲" and "Anna 🌟" both draw as "Anna") get their number, and a label cut to its room,
measured in pixels at the size drawn, keeps what tells it from every other ("Maximilian-Alexander Wolkenstein"
and "... Weinsteiger" as "Maxi… Wolkenstein" and "Maxi… Weinsteiger", "…Wolkenstein" where only the last
word fits, never both "Maximilian-Alexa…"), on two lines where the picture gives it two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bot.games.cards import Card
from bot.i18n import join, t, tn
from bot.render.common import TableInfo, is_computer
from bot.render.pictures.sprites import printable, text_size

ELLIPSIS = "…"
WORD_END = 12  # the longest end of whole words a cut label keeps to tell two names apart


def player_name(
    info: TableInfo, player: str, names: Mapping[str, str] | None = None, locale: object = "en"
) -> str:
    """The player as the alt text names him: his display name, "Computer N", or "Player N" by his seat."""
    if is_computer(player):
        return t(locale, "common.computer", number=player.split(":", 1)[1])
    known = (names or {}).get(player, "").strip()
    if known:
        return known
    if player in info.players:
        return t(locale, "picture.player", number=info.players.index(player) + 1)
    return t(locale, "picture.spectator")


def seat_label(
    info: TableInfo, player: str, names: Mapping[str, str] | None = None, locale: object = "en"
) -> str:
    """The player as a picture draws him: `player_name` in letters the font has; a name with none of them
    (all Chinese, all emoji) by his seat's number ("No. 2"): he has a name, the picture cannot draw it."""
    drawn = printable(player_name(info, player, names, locale))
    if drawn:
        return drawn
    number = info.players.index(player) + 1 if player in info.players else 0
    return t(locale, "picture.undrawable", number=number)


def drawn_name(name: str, number: int, locale: object = "en") -> str:
    """A name as a picture draws it, `number` (his seat or entry) when no letter of it can be drawn."""
    return printable(name) or t(locale, "picture.undrawable", number=number)


def apart(labels: Mapping[str, str], numbers: Mapping[str, int], keep: Sequence[str] = ()) -> dict[str, str]:
    """`labels` with those that read alike made apart by their number ("Anna (1)", "Anna (3)"); `keep` are
    told apart already (a computer's own name, "you")."""
    alike = Counter(label.casefold() for label in labels.values())
    return {
        p: f"{label} ({numbers[p]})" if alike[label.casefold()] > 1 and p not in keep else label
        for p, label in labels.items()
    }


def seat_labels(
    info: TableInfo, names: Mapping[str, str] | None, locale: object = "en", *, you: str | None = None
) -> dict[str, str]:
    """Every seat's `seat_label`, `you` (a hand's owner) as the catalogue's "you", and labels that would
    read alike made apart by the seat's number ("Anna (1)", "Anna (3)"; a computer keeps its own name)."""
    labels = {
        p: t(locale, "picture.you") if p == you else seat_label(info, p, names, locale) for p in info.players
    }
    keep = [p for p in info.players if is_computer(p) or p == you]
    return apart(labels, {p: i + 1 for i, p in enumerate(info.players)}, keep)


def _fits(text: str, size: int, width: int) -> bool:
    return text_size(text, size)[0] <= width


def wrap(text: str, size: int, width: int, lines: int = 1) -> list[str] | None:
    """`text` on at most `lines` lines of `width` pixels, broken between words (a word longer than a line
    after a hyphen in it, else between its letters); None when it needs more lines."""
    out: list[str] = []
    current = ""
    for word in text.split(" "):
        joined = f"{current} {word}" if current else word
        if _fits(joined, size, width):
            current = joined
            continue
        if current:
            out.append(current)
        while not _fits(word, size, width) and len(word) > 1:
            cut = max((k for k in range(1, len(word)) if _fits(word[:k], size, width)), default=1)
            hyphen = word.rfind("-", 0, cut) + 1  # "Maximilian-" / "Alexander", not "…-Al" / "exander"
            cut = hyphen if hyphen > 1 else cut
            out.append(word[:cut])
            word = word[cut:]
        current = word
        if len(out) >= lines:
            return None
    out.append(current)
    return out if len(out) <= lines else None


def names_one(head: str, tail: str, name: str, others: Sequence[str]) -> bool:
    """Whether a label cut to `head…tail` can be read as `name` only, none of `others`."""

    def read_as(full: str) -> bool:
        return full.startswith(head) and full.endswith(tail) and len(full) >= len(head) + len(tail)

    return read_as(name) and not any(read_as(o) for o in others if o != name)


def short_words(name: str) -> list[int]:
    """Where the name's whole last words up to `WORD_END` letters start, the shortest end first."""
    words = [i for i in range(len(name) - 1, 0, -1) if name[i - 1] == " " and name[i] != " "]
    return [i for i in words if len(name) - i <= WORD_END]


def _ends(name: str) -> list[int]:
    """Where the end a cut label keeps may start, in the order tried: no end, then whole last words up to
    `WORD_END` letters ("…de la Cruz"), then letters, the fewest first ("WWW…M")."""
    words = short_words(name)
    return [len(name), *words, *(i for i in range(len(name) - 1, 0, -1) if i not in words)]


def shorten(name: str, others: Sequence[str], size: int, width: int, lines: int = 1) -> list[str]:
    """`name` on at most `lines` lines of `width`: whole when it fits, else cut with an ellipsis so that it
    still reads as `name` and as none of `others`: its start as far as there is room, then, where another
    name starts alike, the shortest end that tells them apart ("Jose Mar… Cruz", "Comp… 2")."""
    whole = wrap(name, size, width, lines)
    if whole is not None:
        return whole
    first: list[str] | None = None
    for start in _ends(name):
        tail = name[start:].strip()
        joint = ELLIPSIS + (" " if tail and name[start - 1] == " " else "")
        low, high, best = 1, start - 1, None
        while low <= high:  # the longest start that fits beside that end
            mid = (low + high) // 2
            drawn = wrap(name[:mid].rstrip() + joint + tail, size, width, lines)
            if drawn is None:
                high = mid - 1
            else:
                low, best = mid + 1, (name[:mid].rstrip(), drawn)
        if best is None and start in short_words(name):  # the telling word alone: "…Wolkenstein"
            bare = wrap(ELLIPSIS + tail, size, width, lines)
            best = None if bare is None else ("", bare)
        if best is None:
            continue  # this end leaves no room for a start
        first = first or best[1]
        if names_one(best[0], tail, name, others):
            return best[1]
    return first or [ELLIPSIS]  # no end tells it apart (only a name written twice): as far as it fits


class SeatNames:
    """The seats' labels (`seat_labels`) and each one fitted to a room so that it still names its seat
    alone. Called with a player, the whole label (for a sentence that `pieces.fit_names` fits)."""

    def __init__(
        self,
        info: TableInfo,
        names: Mapping[str, str] | None,
        locale: object = "en",
        *,
        you: str | None = None,
    ) -> None:
        self.labels = seat_labels(info, names, locale, you=you)
        self._others = list(self.labels.values())
        self._info, self._names, self._locale = info, names, locale

    def __call__(self, player: str) -> str:
        known = self.labels.get(player)
        return known if known is not None else seat_label(self._info, player, self._names, self._locale)

    def lines(self, player: str, size: int, width: int, count: int = 2) -> list[str]:
        """The player's label on at most `count` lines of `width` pixels."""
        return shorten(self(player), self._others, size, width, count)

    def line(self, player: str, size: int, width: int) -> str:
        """The player's label on one line of `width` pixels."""
        return self.lines(player, size, width, 1)[0]


def seat_note(info: TableInfo, player: str, locale: object = "en") -> str:
    """What the seat label leaves out: a computer playing a person's seat."""
    if player in info.computer_seats and not is_computer(player):
        return t(locale, "picture.computer_plays")
    return ""


def card_words(card: Card, locale: object = "en") -> str:
    """ "ace of spades", "10 of hearts" / "Pik-Ass", "Herz-10": face cards by name, numbers as digits (the
    catalogue's card words spell numbers out, which a picture's short alt text does not need)."""
    if card.is_joker:
        return t(locale, "card.joker")
    assert card.rank is not None and card.suit is not None  # every card but the joker has both
    rank = tn(locale, f"rank.{card.rank.value}", 1) if card.rank.value > 10 else card.rank.short
    return t(locale, "card.words", rank=rank, suit=tn(locale, f"suit.{card.suit.value}", 2))


def cards_words(cards: list[Card], locale: object = "en") -> str:
    return join(locale, [card_words(c, locale) for c in cards]) if cards else t(locale, "picture.none")


def alt(parts: list[str]) -> str:
    """Alt text within Discord's 1,024 characters for an attachment's description."""
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if len(text) <= 1000 else text[:999] + "…"
