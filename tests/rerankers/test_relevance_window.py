from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from authorag.relevance.coverage import MAX_QUERY_TERMS, coverage, query_stems
from authorag.rerankers.calibration import calibrate, window_fusion
from authorag.types import Candidate, Ranking


def arr(*v: float) -> np.ndarray:
    return np.asarray(v, dtype=np.float64)


@pytest.mark.parametrize(("values", "want", "note"), [
    ((7.5, 3.0, 0.0), [1.0, 0.4, 0.0], None),
    ((0.9, 0.45), [1.0, 0.5], None),  # two candidates stay 1 and 0.5, not 1 and 0
    ((2.0,), [1.0], "one candidate: trust orders"),
    ((0.4, 0.4, 0.4), [1.0, 1.0, 1.0], "relevance equal for every candidate: trust orders"),
    ((0.0, 0.0), [1.0, 1.0], "relevance equal for every candidate: trust orders"),
    ((-1.0, 1.0, 0.0), [0.0, 1.0, 0.5], "scores below 0: min-max scaled"),
    ((float("nan"), 2.0), [0.0, 1.0], "1 relevance score(s) not a finite number, read as 0"),
    ((float("nan"), float("inf")), [1.0, 1.0],
     "2 relevance score(s) not a finite number, read as 0; relevance equal for every candidate: trust orders"),
])
def test_calibrate(values: tuple[float, ...], want: list[float], note: str | None) -> None:
    got, why = calibrate(arr(*values))
    assert got.tolist() == pytest.approx(want)
    assert why == note


def test_calibrate_empty() -> None:
    got, why = calibrate(arr())
    assert got.size == 0 and why is None


def test_window_fusion_hand_worked() -> None:
    fused = window_fusion(arr(1.0, 0.6, 0.2), arr(0.05, 0.9, 0.9), 0.7, 0.5)
    # on topic: 0.5 + 0.5 * (0.3 * rel + 0.7 * trust); off topic: 0.5 * rel / 0.5 (trust plays no part)
    assert fused.tolist() == pytest.approx([0.5 + 0.5 * (0.3 + 0.035), 0.5 + 0.5 * (0.18 + 0.63), 0.5 * 0.4])


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=30),
       st.floats(0, 1), st.floats(0.01, 1))
def test_no_off_topic_candidate_ends_above_an_on_topic_one(rows: list[tuple[float, float]], weight: float,
                                                          window: float) -> None:
    rel, trust = arr(*(r for r, _ in rows)), arr(*(t for _, t in rows))
    fused = window_fusion(rel, trust, weight, window)
    on = rel >= window
    if on.any() and (~on).any():
        assert fused[on].min() > fused[~on].max()
    off = np.flatnonzero(~on)  # off topic, relevance alone orders: trust never lifts one past another
    for i in off:
        for j in off:
            if rel[i] > rel[j]:
                assert fused[i] >= fused[j]
    assert ((fused >= 0) & (fused <= 1)).all()


def test_query_stems() -> None:
    assert query_stems("Does the MMR vaccine cause autism? autism!") == ("mmr", "vaccin", "caus", "autism")
    assert query_stems("cranberries infections boxes prevented cures") == ("cranberri", "infect", "box", "prevent",
                                                                          "cure")
    assert query_stems("Impfungen in der Schwangerschaft", "de") == ("impfung", "schwangerschaft")
    assert query_stems("Impfungen in der Schwangerschaft", "plain") == ("impfungen", "in", "der", "schwangerschaft")
    assert len(query_stems(" ".join(f"w{i}" for i in range(200)))) == MAX_QUERY_TERMS


def test_coverage_counts_each_query_word_once() -> None:
    q = "does cranberry juice prevent urinary tract infections"
    stuffed = "cranberry juice prevents urinary tract infections " * 20
    paraphrase = "Trials of cranberry products show fewer urinary tract infections."
    assert coverage(q, [stuffed, paraphrase, "Flu shots.", ""]) == pytest.approx([1.0, 4 / 6, 0.0, 0.0])
    assert coverage("the and of", ["the and of"]) == [0.0]  # no content word in the query


def test_coverage_reads_a_long_page_s_window_only() -> None:
    # A 100,000-character page is read like page evidence reads it: the first 4,000 characters
    # and four 1,000-character samples of the rest. A query word outside them is not seen, so
    # the work per candidate is bounded however long the page.
    from authorag.relevance.coverage import coverage_and_stuffing

    filler = "lorem ipsum dolor sit amet " * 4000  # 108,000 characters, no query word
    step = (len(filler) + len(" zinc") - 4000) // 4
    inside = filler[:4000 + step] + " zinc " + filler[4000 + step:]   # at the start of the second sample
    outside = filler[:50_000] + " zinc " + filler[50_000:]            # between two samples
    head = "zinc " + filler
    cov, stuffed = coverage_and_stuffing("zinc lozenges", [head, inside, outside, "zinc lozenges"])
    assert cov == [0.5, 0.5, 0.0, 1.0] and stuffed == [False, False, False, False]


def _reference_coverage(query: str, texts: list[str]) -> tuple[list[float], list[bool]]:
    # The plain algorithm, one text and one word at a time (no stemming cache): each run of
    # QUOTE_MIN_WORDS or more words whose neighbours follow each other in the query is one word.
    from authorag.relevance.coverage import (
        ECHO_MIN_WORDS,
        ECHO_REPEAT,
        QUOTE_MIN_WORDS,
        QUOTED_SHARE,
        STUFFED_MIN_WORDS,
        STUFFED_REPEAT,
        stuffed_share,
    )
    from authorag.relevance.language import stem_words
    from authorag.relevance.tokens import tokenize
    from authorag.text_window import read_window

    stems = query_stems(query, "en")
    q = [stem_words([t], "en")[0] for t in tokenize(query)]
    follows = {(a, b) for a, b in zip(q, q[1:])}
    cov, stuffed = [], []
    for text in texts:
        words = [stem_words([t], "en")[0] for t in tokenize(read_window(text))]
        found = {w for w in words if w in stems}
        cov.append(len(found) / len(stems) if stems else 0.0)
        runs = [[words[0]]] if words else []
        for a, b in zip(words, words[1:]):
            if (a, b) in follows:
                runs[-1].append(b)
            else:
                runs.append([b])
        uses = sum(w in stems for w in words)
        quoted = sum(len(r) for r in runs if len(r) >= QUOTE_MIN_WORDS)
        if quoted <= QUOTED_SHARE * len(words):
            n = sum(1 if len(r) >= QUOTE_MIN_WORDS else len(r) for r in runs)
            k = sum(1 if len(r) >= QUOTE_MIN_WORDS else sum(w in stems for w in r) for r in runs)
        else:
            n, k = len(words), uses
        dense = bool(found) and n >= ECHO_MIN_WORDS and k >= stuffed_share(n) * n
        stuffed.append(dense and uses >= (STUFFED_REPEAT if n >= STUFFED_MIN_WORDS else ECHO_REPEAT) * len(found))
    return cov, stuffed


def test_coverage_equals_the_plain_algorithm() -> None:
    # Seeded pools of TREC 2019 pages (cut to several lengths) and word salads with short query
    # words ("c"), shared prefixes (c / cold / colds), accents, curly quotes and other scripts.
    import random

    from authorag.benchmarks.tasks import read_rows
    from authorag.relevance.coverage import coverage_and_stuffing

    pages = [r["text"] for r in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz")]
    words = ("c cs cold colds colder cure cures cured vitamin vitamins vit prevent prevented preventing café cafés "
             "straße strasse infection infections the of and x 10 \u2019s \u201cquote\u201d \u00a0 \u4e2d\u6587 "
             "na\u00efve \ud800 ﬁx").split(" ")
    queries = ["does vitamin C prevent colds?", "cures cured curing cure", "the and of", "", "Café straße infections",
               "c", "ﬁx naïve 中文", "colds colder cold"]
    rng = random.Random(11)
    for _ in range(200):
        texts = [rng.choice(pages)[:rng.choice([60, 500, 9000, 10**6])] for _ in range(rng.randint(0, 4))]
        texts += [" ".join(rng.choice(words) for _ in range(rng.randint(0, 90))) for _ in range(rng.randint(0, 6))]
        rng.shuffle(texts)
        query = rng.choice(queries)
        assert coverage_and_stuffing(query, texts, "en") == _reference_coverage(query, texts), query


_MORTGAGE = "what documents do I need to apply for a mortgage"
_CHECKLIST = ("https://greenleafhomelending.com/resources/mortgage-application-checklist",
              "Mortgage application checklist. To get pre-approved, gather your last two pay stubs, W-2 forms and tax "
              "returns for the past two years, two months of bank and investment statements, a photo ID, and details "
              "of any debts such as car loans and student loans.")
_RENTAL = ("https://www.hud.gov/topics/rental_assistance",
           "Rental assistance. HUD helps low-income families, elderly people and people with disabilities afford "
           "decent housing through public housing, Housing Choice Vouchers and other programmes. To apply, contact "
           "your local public housing agency, which will ask for documents about income and family size.")


class _Cosines:
    """A relevance scorer that judges meaning: the MiniLM cosines of the two pages, by URL."""

    name = "relevance.cosine"
    semantic = True

    def __init__(self, by_url: dict[str, float]) -> None:
        self.by_url = by_url

    def score(self, query: str, candidates: list[Candidate]) -> list[float]:
        return [self.by_url[c.url] for c in candidates]


_COSINES = {_CHECKLIST[0]: 0.723, _RENTAL[0]: 0.363}
_CHECKLIST_WORDS = 0.7 * 0.25 / 0.5 + 0.3 * 1.7248 / 1.7779
"""The checklist's words: coverage 0.25 against HUD's 0.5 (of "document", "need", "apply", "mortgage"
it names "mortgage", HUD "documents" and "apply"), BM25 1.7248 against 1.7779, mixed 0.7 / 0.3."""
_CHECKLIST_NORM = 0.55 + (_CHECKLIST_WORDS - 0.55 ** 1.5) * (1 - 0.55) / (1 - 0.55 ** 1.5)


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_scores_that_judge_meaning_cap_the_words_window(order: tuple[int, int]) -> None:
    # The HUD page shares "documents" and "apply" with the question but answers another one. By
    # the words' share alone it is on topic; its lead ("Rental assistance.") and address name none
    # of the question's words and its text holds half of them, so the window keeps it out as a
    # passing mention (subject_off_topic) with BM25 or upstream scores, which may be a BM25
    # retriever's (before, trust put it above the lender's checklist). A scorer that judges
    # meaning (MiniLM cosines 0.723 and 0.363) caps its window relevance at 0.363 / 0.723 = 0.502,
    # below the 0.55 on-topic share, by the meaning alone: the checklist stays first.
    from authorag.adapters import build_reranker, candidates

    rows = [[_CHECKLIST, _RENTAL][i] for i in order]
    for relevance in ("bm25", "upstream"):
        words, mode = build_reranker(relevance=relevance)
        cands = candidates([(u, t, _COSINES[u]) for u, t in rows], mode)[0]
        ranking = words.rerank(_MORTGAGE, cands)
        assert [c.domain for c in ranking] == ["greenleafhomelending.com", "hud.gov"]
        assert ranking.provenance.get("relevance_note") == (
            f"address and lead name none of the query's words, off topic: {_RENTAL[0]}")
    semantic, mode = build_reranker(relevance=_Cosines(_COSINES))
    ranked = semantic.rerank(_MORTGAGE, candidates([(u, t, None) for u, t in rows], mode)[0])
    assert [c.domain for c in ranked] == ["greenleafhomelending.com", "hud.gov"]
    norm = {c.domain: c.scores["relevance.norm"] for c in ranked}
    # the checklist keeps its words' value (HUD names more of the question's words), put on the
    # window's scale (0.55 ** 1.5 of the best lands on 0.55); HUD's meaning, 0.502 of the best, is
    # put on the same scale (0.742 of the best lands on 0.55)
    assert norm == pytest.approx({"greenleafhomelending.com": _CHECKLIST_NORM,
                                  "hud.gov": 0.363 / 0.723 * 0.55 / 0.55 ** 0.5}, abs=1e-3)
    assert ranked.candidates[0].scores["fused"] >= 0.5 > ranked.candidates[1].scores["fused"]


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_similarity_relevance_lets_upstream_scores_cap_the_window(order: tuple[int, int]) -> None:
    # The same cosines handed over as upstream scores: as "upstream" (kind unknown) the words
    # decide the window and only the subject test keeps HUD out (above); declared "similarity"
    # they cap it exactly as the semantic scorer does, and the breakdown names the source.
    from authorag.adapters import breakdowns, build_reranker, candidates

    rows = [[_CHECKLIST, _RENTAL][i] for i in order]
    reranker, mode = build_reranker(relevance="similarity")
    cands, source = candidates([(u, t, _COSINES[u]) for u, t in rows], mode)
    ranked = reranker.rerank(_MORTGAGE, cands)
    assert [c.domain for c in ranked] == ["greenleafhomelending.com", "hud.gov"]
    rows_out = breakdowns(ranked, source)
    assert [(b["relevance_source"], b["relevance"]) for b in rows_out] == [("similarity", 0.723), ("similarity", 0.363)]
    assert [b["relevance_norm"] for b in rows_out] == pytest.approx([_CHECKLIST_NORM, 0.363 / 0.723 * 0.55 ** 0.5],
                                                                    abs=1e-3)


_NAME = "how do I change my name after marriage"
_NAME_HOW = ("https://brightsidewedding.com/planning/name-change-checklist",
             "Name change checklist after the wedding. Order certified copies of your marriage certificate first. Then update your Social Security card by filing Form SS-5 with a copy of the certificate; once that is done, visit the DMV for a new driver's license. After that, change your name with your bank, employer, passport office, insurers, doctors and voter registration. Keep a list and a few certificate copies handy.")
_GREEN_CARD = ("https://www.uscis.gov/green-card/after-we-grant-your-green-card/replace-your-green-card",
             "Replace your green card. If your card was lost, stolen or damaged, or if your name or other information changed after it was issued, file Form I-90 to replace it. If you changed your name, include a copy of the legal document, such as a marriage certificate or court order. You can file online and pay the fee by card.")


def _ranked(relevance: Any, query: str, rows: list[tuple[str, str]], **policy: float) -> Ranking:
    """``rows`` (url, text) reranked by the default composition with ``relevance`` and ``policy``."""
    from authorag.adapters import build_reranker, candidates

    reranker, mode = build_reranker(relevance=relevance, policy=policy or None)
    return reranker.rerank(query, candidates([(u, t, None) for u, t in rows], mode)[0])


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_meaning_must_reach_a_stricter_share_than_the_words(order: tuple[int, int]) -> None:
    # USCIS's green-card page (no-harm-hard dev pair nhh-law-05) names a legal name change and
    # marriage but answers another question. Its words are inside the window, so with BM25 trust
    # lifts it above the wedding site's checklist. Its MiniLM cosine, 0.497 against 0.759, is
    # 0.655 of the best: inside the words' share 0.55, below the meaning's sqrt(0.55) = 0.742, so
    # with scores that judge meaning it stays below the window.
    from authorag.rerankers.fusion import default_meaning_on_topic

    rows = [[_NAME_HOW, _GREEN_CARD][i] for i in order]
    by_words = _ranked("bm25", _NAME, rows)
    assert [c.domain for c in by_words] == ["uscis.gov", "brightsidewedding.com"]
    assert by_words.candidates[0].scores["relevance.norm"] > 0.55  # the words' window lets it in
    cosines = _Cosines({_NAME_HOW[0]: 0.759, _GREEN_CARD[0]: 0.497})
    ranked = _ranked(cosines, _NAME, rows)
    assert [c.domain for c in ranked] == ["brightsidewedding.com", "uscis.gov"]
    green_card = ranked.candidates[1]
    assert 0.55 < 0.497 / 0.759 < default_meaning_on_topic(0.55)
    assert green_card.scores["relevance.norm"] == pytest.approx(0.497 / 0.759 * 0.55 / default_meaning_on_topic(0.55))
    assert green_card.scores["fused"] < 0.5 <= ranked.candidates[0].scores["fused"]
    # the meaning at the words' share (meaning_on_topic = on_topic: the rule before) lets it in
    loose = _ranked(cosines, _NAME, rows, meaning_on_topic=0.55)
    assert [c.domain for c in loose] == ["uscis.gov", "brightsidewedding.com"]
    assert loose.candidates[0].scores["relevance.norm"] == pytest.approx(0.497 / 0.759)
    assert [c.domain for c in _ranked(cosines, _NAME, rows, meaning_on_topic=0.9)] == [
        "brightsidewedding.com", "uscis.gov"]


_CLOUD = "what is cloud storage"
_CLOUD_HOW = ("https://plainspeaktech.com/explainers/what-is-cloud-storage",
              "What is cloud storage? Cloud storage keeps your files on servers run by a company such as Google, Apple, Microsoft or Dropbox, instead of only on your own device. You reach them over the internet from any phone or computer, and they are kept in sync. Most services give a few gigabytes free and charge monthly for more. It protects photos if your phone is lost, but you depend on the company and your password.")
_NIST_CLOUD = ("https://www.nist.gov/programs-projects/nist-cloud-computing-program-nccp",
               "NIST cloud computing program. NIST develops standards and guidelines that help federal agencies adopt cloud computing securely. Its definition of cloud computing, with its service models (software, platform and infrastructure as a service) and deployment models, is widely used. The program also publishes a reference architecture and security guidance for storage and services in the cloud.")


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_the_meanings_share_holds_when_the_words_tell_no_page_apart(order: tuple[int, int]) -> None:
    # Both pages name "cloud" and "storage" (no-harm-hard dev pair nhh-technology-08), so coverage
    # tells them apart no more than it does here and the scores decide alone. NIST's program page
    # has 0.627 of the explainer's cosine: below the meaning's share, it stays below the window.
    from authorag.relevance.coverage import coverage

    assert coverage(_CLOUD, [_CLOUD_HOW[1], _NIST_CLOUD[1]]) == [1.0, 1.0]
    rows = [[_CLOUD_HOW, _NIST_CLOUD][i] for i in order]
    cosines = _Cosines({_CLOUD_HOW[0]: 0.801, _NIST_CLOUD[0]: 0.502})
    ranked = _ranked(cosines, _CLOUD, rows)
    assert [c.domain for c in ranked] == ["plainspeaktech.com", "nist.gov"]
    assert ranked.candidates[1].scores["relevance.norm"] == pytest.approx(0.502 / 0.801 * 0.55 ** 0.5)
    assert [c.domain for c in _ranked(cosines, _CLOUD, rows, meaning_on_topic=0.55)] == ["nist.gov", "plainspeaktech.com"]


def test_the_meaning_scale_keeps_order_and_both_ends() -> None:
    from authorag.rerankers.fusion import default_meaning_on_topic, meaning_on_words_scale

    m = np.linspace(0.0, 1.0, 101)
    for on_topic in (0.0, 0.2, 0.55, 0.9, 1.0):
        scaled = meaning_on_words_scale(m, on_topic)
        assert np.all(np.diff(scaled) > 0) and scaled[0] == 0.0 and scaled[-1] == pytest.approx(1.0)
        # on topic by meaning exactly from the meaning's own share
        assert ((scaled >= on_topic - 1e-12) == (m >= default_meaning_on_topic(on_topic) - 1e-12)).all()
    for share in (0.0, 0.3, 0.9, 1.0):  # a share set by hand, the ends included
        scaled = meaning_on_words_scale(m, 0.55, meaning_on_topic=share)
        assert np.all(np.diff(scaled) >= 0) and scaled[-1] == pytest.approx(1.0)
        assert ((scaled >= 0.55 - 1e-12) == (m >= share - 1e-12)).all(), share
    assert meaning_on_words_scale(arr(1.0, 0.8, 0.7), 0.49).tolist() == pytest.approx([1.0, 0.66, 0.49])
    assert meaning_on_words_scale(arr(1.0, 0.8, 0.5), 0.5, meaning_on_topic=0.8).tolist() == pytest.approx([1.0, 0.5, 0.3125])
    assert meaning_on_words_scale(arr(1.0, 0.3), 0.55, meaning_on_topic=0.55).tolist() == [1.0, 0.3]  # the words' own share


def test_meaning_on_topic_is_a_checked_policy_field() -> None:
    from authorag.errors import ConfigError
    from authorag.policy import make_policy

    assert make_policy({"meaning_on_topic": 0.8}).meaning_on_topic == 0.8
    assert make_policy({}).meaning_on_topic is None
    with pytest.raises(ConfigError, match=r"meaning_on_topic must be in \[0, 1\] or None, got 1.5"):
        make_policy({"meaning_on_topic": 1.5})


def test_similarity_relevance_needs_every_score() -> None:
    from authorag.adapters import candidates
    from authorag.errors import ConfigError
    from authorag.relevance import UpstreamSimilarity
    from authorag.types import Candidate

    with pytest.raises(ConfigError, match=r"relevance 'similarity' needs a score on every document; document\(s\) 2 "):
        candidates([(*_CHECKLIST, 0.7), (*_RENTAL, None)], "similarity")
    with pytest.raises(ConfigError, match=r"candidate\(s\) 1 \(counting from 1\) have none"):
        UpstreamSimilarity().score("q", [Candidate.create(_CHECKLIST[0])])


def test_the_words_window_still_holds_when_the_scores_say_on_topic() -> None:
    # The cap only lowers: a page the scores rate as high as the best but that names none of the
    # question's words beside a page that does is kept out by the words (a cosine is not a licence).
    from authorag.adapters import build_reranker, candidates

    irs = ("https://www.irs.gov/x", "Tax filing deadlines for individuals and businesses.")
    semantic, mode = build_reranker(relevance=_Cosines({_CHECKLIST[0]: 0.70, irs[0]: 0.70}))
    ranked = semantic.rerank(_MORTGAGE, candidates([(*_CHECKLIST, None), (*irs, None)], mode)[0])
    assert [c.domain for c in ranked] == ["greenleafhomelending.com", "irs.gov"]
    assert ranked.candidates[1].scores["relevance.norm"] < 0.55
