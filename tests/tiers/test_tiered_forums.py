"""A post in a site's own forum is a user's page: below its site's pages, never above them."""
from __future__ import annotations

import pytest

from authorag.tiers.tiered import TieredAuthority
from authorag.trust import trust_rule_for
from authorag.types import candidates_from
from tests.rerankers.dict_scorer import KnownOrUnknown

HOSTED_NOTE = "user content (forum) on rated.fr: the platform's authority is not the page's"


def test_a_forum_post_is_never_trusted_more_than_its_site() -> None:
    scorer = TieredAuthority(KnownOrUnknown({"rated.fr": (0.85, 0.8), "junk.fr": (0.9, 0.1)}), lookalikes=None)
    urls = ["https://www.rated.fr/forum/x", "https://forum.rated.fr/x", "https://www.rated.fr/sante/forum/x",
            "https://www.junk.fr/forum/x", "https://forum.junk.fr/x", "https://www.unknown-site.fr/fr/forum/x",
            "https://johndoe.wordpress.com/forum/x"]
    got = scorer.score(candidates_from(urls))
    assert [(d.tier, d.authority, d.credibility, d.note) for d in got] == [
        ("hosted", 0.4, None, HOSTED_NOTE), ("hosted", 0.4, None, HOSTED_NOTE),  # both forms, one note
        ("table", 0.85, 0.8, None),  # a forum named deeper in the path: the site's own page
        ("table", 0.9, 0.1, "user content (forum) on junk.fr: no more than its site's value"),
        ("table", 0.9, 0.1, "user content (forum) on junk.fr: no more than its site's value"),
        ("unknown", None, None, "user content (forum) on unknown-site.fr: no more than its site's value"),
        # a hosting platform's user page keeps the hosted answer whatever the platform's value
        ("hosted", 0.4, None, "user content (blog) on wordpress.com, owner johndoe.wordpress.com: "
                              "the platform's authority is not the page's"),
    ]
    rule = trust_rule_for(0.3)
    assert [rule.value(d) for d in got[:6]] == pytest.approx(
        [0.35, 0.35, 0.3 + 0.7 * (0.45 / 0.65) * (0.7 + 0.3 * 0.55 / 0.7), 0.3 * 0.9 * 0.1 / 0.35,
         0.3 * 0.9 * 0.1 / 0.35, 0.3])


def test_without_platforms_no_forum_is_read() -> None:
    scorer = TieredAuthority(KnownOrUnknown({"rated.fr": (0.85, 0.8)}), platforms=None, lookalikes=None)
    got = scorer.score(candidates_from(["https://www.rated.fr/forum/x"]))
    assert [(d.tier, d.authority, d.note) for d in got] == [("table", 0.85, None)]
