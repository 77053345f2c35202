"""The text and path cue layers: exact votes on hand-made pages (the fast paths keep the old semantics)."""
from __future__ import annotations

import pytest

from authorag.suitability.cues import path_votes, text_votes


@pytest.mark.parametrize(("text", "votes"), [
    ("Add to cart. Free shipping! Only $19 today.",
     [("commercial", pytest.approx(0.45), "text", "prices and buy buttons: $, add to cart, free shipping")]),
    # A non-ASCII page: the euro sign is searched in the text itself.
    ("Prix 10 € – add to cart", [("commercial", 0.3, "text", "prices and buy buttons: add to cart, €")]),
    # The Kelvin sign lower-cases to "k": CHEC<K>OUT is the word "checkout".
    ("CHEC\u212aOUT now for $5", [("commercial", 0.3, "text", "prices and buy buttons: $, checkout")]),
    ("About me: welcome to my blog", [("blog", 0.3, "text", "first-person posts: about me, my blog")]),
    # A non-ASCII character inside a phrase breaks it (it is not dropped): one blog cue, no vote.
    ("About\u00a0 me: welcome to my blog", []),
    ("", []),
    ("Plain words with no cue at all.", []),
])
def test_text_votes(text: str, votes: list[object]) -> None:
    assert text_votes(text) == votes


def test_text_votes_reads_only_the_prefix() -> None:
    page = "x " * 600 + "add to cart, free shipping"
    assert text_votes(page) == []
    assert [v[0] for v in text_votes(page, chars=2000)] == ["commercial"]


@pytest.mark.parametrize(("path", "votes"), [
    ("/uti.htm", []),
    ("/", []),
    ("/forum/questions/12", [("forum", 0.65, "path", "forum path (/forum/)")]),
    ("/2020/05/01/story", [("news", 0.5, "path", "news path (/2020/05/01/)")]),
    ("/shop/blog/x", [("commercial", 0.6, "path", "shop path (/shop/)"), ("blog", 0.55, "path", "blog path (/blog/)")]),
    # a long match is cut at 30 characters, and the reason says so: the quote is not the whole path part
    ("/how-to-revoke-a-leaked-github-personal-access-token",
     [("content_farm", 0.45, "path", "how-to farm path (/how-to-revoke-a-leaked-github…)")]),
    ("/what-is-an-etf", [("content_farm", 0.45, "path", "how-to farm path (/what-is-an-etf)")]),
])
def test_path_votes(path: str, votes: list[object]) -> None:
    assert path_votes(path) == votes
