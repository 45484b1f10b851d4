"""The pages' one HTML builder (`bot.web.html`) escapes by construction: whatever text a player or the store
brings, placed as an element's text or an attribute's value, reaches the page as that text and never as
markup (hypothesis searches for a counterexample); only what the builder made is placed as it is."""

from __future__ import annotations

import html as stdlib
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.web.html import el, join, page


class Parsed(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.data: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs

    def handle_data(self, data: str) -> None:
        self.data.append(data)


def parsed(markup: str) -> Parsed:
    parser = Parsed()
    parser.feed(markup)
    parser.close()
    return parser


@settings(max_examples=200, deadline=None, derandomize=True)  # fixed seeds
@given(st.text(), st.text())
def test_any_text_and_attribute_value_stay_text(words: str, value: str) -> None:
    made = parsed(el("p", words, el("span", "x", class_="who"), title=value))
    assert made.tags == ["p", "span"]  # no element of the words' own
    assert ("title", value) in made.attributes and ("class", "who") in made.attributes
    assert "".join(made.data) == words + "x"


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.text(min_size=1))
def test_a_page_shows_its_title_and_data_as_text(words: str) -> None:
    made = page(title=words, body=join([words]), locale="en", data={"step": words})
    assert f"<title>{stdlib.escape(words, quote=False)}</title>" in made
    tags = parsed(made).tags
    assert tags.count("title") == 1 and tags.count("body") == 1 and "script" not in tags


def test_nested_markup_is_placed_as_made_and_empty_parts_are_nothing() -> None:
    assert el("div", None, el("b", "<i>"), id="a&b") == '<div id="a&amp;b"><b>&lt;i&gt;</b></div>'
    assert el("img", src="/x.png", alt='"') == '<img src="/x.png" alt="&quot;">'
