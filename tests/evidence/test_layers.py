"""The page-evidence layers: key-word counting, text and URL features (outcomes, bad input)."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from authorag.errors import ConfigError
from authorag.evidence.text import FAMILIES, TEXT_FEATURES, text_features
from authorag.text_window import READ_CHARS, read_window
from authorag.evidence.url import URL_FEATURES, split_path, url_features
from authorag.evidence.words import WordCounter
from authorag.types import Candidate

ENGLISH = ("In a randomized trial, the researchers found that the study drug did not help patients who were "
           "treated with it. ")


def test_counter_counts_each_group_and_all_words() -> None:
    counter = WordCounter({"study": ("study", "studies", "trial"), "you": ("you", "your")})
    counts, words = counter.count([b"Two STUDIES, one trial: your study.", b"", b"you're youyou studiesx caf\xc3\xa9 you"])
    assert counts.tolist() == [[3, 1], [0, 0], [0, 2]]
    assert words.tolist() == [6, 0, 6]  # "you're" is "you" + "re"; "café" is "caf" (bytes of non-ASCII separate)


def test_counter_word_belongs_to_first_group_and_empty_batch() -> None:
    counter = WordCounter({"a": ("risk",), "b": ("risk", "safe")})
    assert counter.count([b"risk safe risk"])[0].tolist() == [[2, 1]]
    counts, words = counter.count([])
    assert counts.shape == (0, 2) and words.shape == (0,)


@pytest.mark.parametrize("bad", ["Study", "", "contraindications", "co-op", "café"])
def test_counter_rejects_bad_key_words(bad: str) -> None:
    with pytest.raises(ConfigError, match="must be 1-14 lower-case ASCII letters or digits"):
        WordCounter({"g": (bad,)})


def test_counter_needs_a_group() -> None:
    with pytest.raises(ConfigError, match="at least one group"):
        WordCounter({})


@pytest.mark.parametrize(("text", "status"), [
    ("", "empty"), ("   \n\t ", "empty"), ("\x00\x01\x02binary" * 50, "binary"), ("\ufffd" * 400, "binary"),
    ("Too short to say anything.", "too_short"), ("x" * 100_000, "too_short"),
    ("Die Behandlung ist nicht wirksam und der Arzt sagt das auch, wie die Studie zeigt. " * 8, "not_english"),
    (ENGLISH * 4, "read"),
])
def test_text_status(text: str, status: str) -> None:
    batch = text_features([text])
    assert batch.status == (status,)
    values = dict(zip(TEXT_FEATURES, batch.values[0].tolist()))
    if status in ("empty", "binary", "too_short"):
        assert all(math.isnan(v) for v in values.values())
    elif status == "not_english":  # English cue families off, language-free features on
        assert math.isnan(values["t.study"]) and not math.isnan(values["t.excl"]) and not math.isnan(values["t.len"])
    else:
        assert not any(math.isnan(v) for v in values.values())


def test_random_bytes_never_raise() -> None:
    texts = [os.urandom(5000).decode("latin-1") for _ in range(5)] + [os.urandom(3000).decode("utf-8", "replace")]
    assert set(text_features(texts).status) <= {"binary", "too_short", "not_english", "read"}


def test_enormous_text_reads_a_bounded_window() -> None:
    page = ENGLISH * 50_000  # ~5 MB
    window = read_window(page)
    assert len(window) <= READ_CHARS + 4 and window.startswith(ENGLISH[:100])
    batch = text_features([page])
    assert batch.status == ("read",) and batch.words[0] < 2000  # ~1,300 words of 8,000 characters, not 900,000


def test_rates_follow_the_words_on_the_page() -> None:
    cure = "Buy now! This miracle cure is guaranteed, proven and natural: order today, free shipping! " * 6
    study = ENGLISH * 6 + "See the references (doi 10.1000/x; PubMed 123) in the journal."
    batch = text_features([cure, study])
    col = {name: i for i, name in enumerate(TEXT_FEATURES)}
    assert batch.status == ("read", "read")
    assert batch.values[0, col["t.cure"]] > batch.values[1, col["t.cure"]]
    assert batch.values[0, col["t.excl"]] > batch.values[1, col["t.excl"]]
    assert batch.values[1, col["t.study"]] > batch.values[0, col["t.study"]]
    assert batch.values[1, col["t.ids"]] > batch.values[0, col["t.ids"]]
    fam = list(FAMILIES)
    assert batch.counts[0, fam.index("cure")] == 6 * 4  # miracle, cure, guaranteed, proven ("natural" is not a key)
    assert batch.counts[1, fam.index("cite")] == 2  # references, journal (doi and pubmed are the language-free ids)


def _url(url: str) -> tuple[set[str], dict[str, float], bool]:
    c = Candidate.create(url)
    f = url_features(url, c.host, c.domain)
    return {name for name, _ in f.cues}, dict(zip(URL_FEATURES, f.values)), f.has_path


@pytest.mark.parametrize(("url", "cues"), [
    ("https://shop.example.com/product/vitamin-c?hop=abc", {"u.shop", "u.referral"}),
    ("http://www.clinic-a.com/x.html?utm_source=news", {"u.referral"}),
    ("http://www.asthmainc.net/tag/oily-fish/", {"u.listing"}),
    ("http://blog.example.net/category/health/page/3/", {"u.listing"}),
    ("http://www.pharmacy-b.com/ns/DisplayMonograph.asp?storeID=42&DocID=1", {"u.dynamic", "u.referral"}),
    ("http://www.site-c.com/print/article-12", {"u.print"}),
    ("https://johndoe.wordpress.com/2020/01/01/my-story/", {"u.hosted"}),
    ("https://best-pills.myshopify.com/collections/all", {"u.hosted"}),
    ("http://www.1cure4cancer.com/index.html", {"u.stuffed"}),
    ("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC123/", set()),
])
def test_url_cues(url: str, cues: set[str]) -> None:
    assert _url(url)[0] == cues


def test_url_shape_and_bare_domains() -> None:
    _, shape, has_path = _url("http://www.hospital-d.org/patients/leaflets/asthma.htm")
    assert (shape["u.depth"], shape["u.static"], shape["u.org"], shape["u.home"], has_path) == (0.5, 1.0, 1.0, 0.0, True)
    cues, shape, has_path = _url("nih-like-portal.co.uk")
    assert cues == set() and has_path is False and shape["u.home"] == 1.0 and shape["u.cctld"] == 1.0
    assert url_features("", None, None).values == (0.0,) * (len(URL_FEATURES) - 9) + (0.0, 0.0, 1.0) + (0.0,) * 6


def test_split_path_ignores_fragment_and_cuts_long_urls() -> None:
    assert split_path("HTTP://a.com/A/B.HTML?X=1#top") == ("/a/b.html", "x=1")
    assert split_path("a.com?x=1") == ("", "x=1")
    path, query = split_path("https://a.com/" + "x" * 10_000)
    assert len(path) < 2000 and query == ""


def test_text_batch_matches_feature_names() -> None:
    batch = text_features([ENGLISH * 3, ""])
    assert batch.values.shape == (2, len(TEXT_FEATURES)) and np.isnan(batch.values[1]).all()
