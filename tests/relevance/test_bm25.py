"""BM25Relevance: tokenization, hand-computed Okapi scores, orders, edge cases, validation."""
from __future__ import annotations

import math

import numpy as np
import pytest

from authorag.errors import ConfigError
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.tokens import ENGLISH_STOPWORDS, tokenize
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import UNKNOWN_DETAIL, AuthorityDetail, Candidate


def _cands(*texts: str) -> list[Candidate]:
    return [Candidate.create(f"https://site{i}.org/p", text, id=f"d{i}") for i, text in enumerate(texts)]


@pytest.mark.parametrize(("text", "tokens"), [
    ("Do Cranberries prevent UTIs?", ["do", "cranberries", "prevent", "utis"]),
    ("Straße", ["strasse"]),
    ("Café-au-lait, 2 cups", ["café", "au", "lait", "2", "cups"]),
    ("snake_case words", ["snake", "case", "words"]),
    ("Здравствуй, мир!", ["здравствуй", "мир"]),
    ("", []),
    ("  ...  ", []),
])
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_drops_stopwords() -> None:
    assert tokenize("Does the flu shot work for me?", ENGLISH_STOPWORDS) == ["flu", "shot", "work"]


def test_okapi_score_matches_hand_computation() -> None:
    # 3 docs, lengths 2, 4, 2 (avgdl 8/3); "cranberry" occurs once, in doc 0 only.
    cands = _cands("cranberry juice", "zinc lozenges for colds", "vitamin c")
    idf = math.log((3 - 1 + 0.5) / (1 + 0.5))
    expected = idf * (1 * 2.5) / (1 + 1.5 * (1 - 0.75 + 0.75 * 2 / (8 / 3)))
    assert BM25Relevance(idf="okapi", language="plain").score("Cranberry!", cands) == pytest.approx([expected, 0.0, 0.0])
    assert expected == pytest.approx(0.57558, abs=1e-5)


def test_k1_and_b_are_used() -> None:
    cands = _cands("cranberry juice", "zinc lozenges for colds", "vitamin c")
    idf = math.log(2.5 / 1.5)
    # b = 0 removes length normalization: score = idf * (k1 + 1) / (1 + k1)
    assert BM25Relevance(k1=2.0, b=0.0, idf="okapi").score("cranberry", cands)[0] == pytest.approx(idf)
    assert BM25Relevance(k1=0.5, b=0.0, idf="okapi").score("cranberry", cands)[0] == pytest.approx(idf)
    # b = 1 with a document shorter than average raises the score above idf
    assert BM25Relevance(b=1.0, idf="okapi").score("cranberry", cands)[0] > idf


def test_lucene_idf_is_the_default() -> None:
    cands = _cands("cranberry juice", "zinc lozenges for colds", "vitamin c")
    idf = math.log(1 + 2.5 / 1.5)
    expected = idf * 2.5 / (1 + 1.5 * (1 - 0.75 + 0.75 * 2 / (8 / 3)))
    assert BM25Relevance(language="plain").score("cranberry", cands) == pytest.approx([expected, 0.0, 0.0])


def test_lucene_keeps_terms_shared_by_most_candidates() -> None:
    # "urinary" and "tract" occur in 2 of 3 candidates: Okapi floors them to epsilon * mean IDF.
    cands = _cands("Cranberries cure every urinary tract infection overnight",
                   "Cranberry products and urinary tract infections: a review of trials",
                   "How to change a flat tyre")
    okapi = BM25Relevance(idf="okapi", language="plain").score("cranberries urinary tract infection", cands)
    lucene = BM25Relevance(language="plain").score("cranberries urinary tract infection", cands)
    assert okapi[1] / okapi[0] == pytest.approx(0.1259, abs=1e-3)
    assert lucene[1] / lucene[0] == pytest.approx(0.2738, abs=1e-3)
    assert lucene[2] == okapi[2] == 0.0


def test_matching_document_ranks_first() -> None:
    cands = _cands(
        "How to change a flat tyre on a car.",
        "Cranberry juice and urinary tract infection: what trials show.",
        "Zinc lozenges for the common cold.",
        "Urinary incontinence exercises.",
        "Sourdough bread recipe.",
        "Marathon training plan.",
    )
    scores = BM25Relevance().score("cranberries urinary tract infection", cands)
    order = sorted(range(len(cands)), key=lambda i: -scores[i])
    assert order[:2] == [1, 3]
    assert scores[0] == scores[2] == scores[4] == scores[5] == 0.0


def test_two_candidates_okapi_idf_is_zero_lucene_is_not() -> None:
    # With N = 2 and n = 1, Okapi IDF is log(1.5 / 1.5) = 0: BM25 cannot separate two candidates.
    cands = _cands("cranberry juice", "vitamin c")
    assert BM25Relevance(idf="okapi").score("cranberry", cands) == [0.0, 0.0]
    lucene = BM25Relevance(idf="lucene").score("cranberry", cands)
    assert lucene == pytest.approx([math.log(1 + 1.5 / 1.5), 0.0])


def test_single_candidate() -> None:
    cands = _cands("cranberry juice")
    assert BM25Relevance().score("cranberry", cands) == pytest.approx([math.log(1 + 0.5 / 1.5)])
    assert len(BM25Relevance(idf="okapi").score("cranberry", cands)) == 1


@pytest.mark.parametrize(("query", "texts"), [
    ("cranberry", []),
    ("cranberry", ["", ""]),
    ("", ["cranberry juice"]),
    ("the of and", ["the juice of cranberries and apples"]),
])
def test_nothing_to_score(query: str, texts: list[str]) -> None:
    rel = BM25Relevance(stopwords=ENGLISH_STOPWORDS)
    assert rel.score(query, _cands(*texts)) == [0.0] * len(texts)


def test_stopwords_change_scores() -> None:
    cands = _cands("the flu vaccine", "the tyre of the car", "a loaf of bread")
    plain = BM25Relevance(language="plain").score("the flu", cands)
    stopped = BM25Relevance(stopwords=ENGLISH_STOPWORDS, language="plain").score("the flu", cands)
    assert plain[1] != 0.0
    assert stopped[1] == stopped[2] == 0.0
    assert stopped[0] > 0.0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k1": -1.0}, r"k1 must be a finite number > 0 .*got -1.0"),
    ({"k1": 0}, r"k1 must be a finite number > 0 .*got 0"),
    ({"k1": True}, r"k1 must be"),
    ({"b": 1.5}, r"b must be in \[0, 1\] .*got 1.5"),
    ({"epsilon": float("inf")}, r"epsilon must be"),
    ({"idf": "bm25+"}, r"idf must be one of \('okapi', 'lucene'\), got 'bm25\+'"),
    ({"stopwords": "the"}, r"stopwords must be a collection of words"),
])
def test_invalid_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BM25Relevance(**kwargs)  # type: ignore[arg-type]


def test_is_a_relevance_scorer_and_feeds_the_reranker() -> None:
    class NoAuthority:
        name = "none"

        def score(self, candidates: list[Candidate]) -> list[AuthorityDetail]:
            return [UNKNOWN_DETAIL] * len(candidates)

    rel = BM25Relevance()
    assert isinstance(rel, RelevanceScorer)
    cands = _cands("zinc lozenges", "cranberry juice for urinary infections", "vitamin c")
    ranking = AuthorityReranker(NoAuthority(), relevance=rel, weight=0.0).rerank("cranberry urinary", cands)
    assert ranking.ids == ["d1", "d0", "d2"]
    assert ranking.candidates[0].scores["relevance.bm25"] > 0
    assert ranking.candidates[0].scores["relevance.norm"] == pytest.approx(1.0)
    assert cands[1].scores == {}


def test_lucene_fast_path_equals_rank_bm25() -> None:
    """The query-term-only Lucene scorer gives rank-bm25's numbers (repeated query terms,
    terms absent from every document, empty documents, prefixes of other tokens), with few
    query terms (substring counts) and many (per-document token counts)."""
    import random

    from authorag.relevance.bm25 import _LuceneBM25, lucene_bm25_scores

    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(40)] + ["a", "aa", "aaa"]
    for _ in range(300):
        docs = [[rng.choice(vocab) for _ in range(rng.randint(0, 20))] for _ in range(rng.randint(1, 25))]
        if not any(docs):
            continue
        query = [rng.choice(vocab) for _ in range(rng.choice([1, 3, 5, 12, 60]))] + ["absent"]
        k1, b = rng.choice([0.9, 1.2, 1.5, 2.0]), rng.choice([0.0, 0.4, 0.75, 1.0])
        with np.errstate(invalid="ignore"):  # rank-bm25 divides 0 by 0 for an empty doc when b = 1
            expected = np.nan_to_num(_LuceneBM25(docs, k1=k1, b=b).get_scores(query), nan=0.0).tolist()
        assert lucene_bm25_scores(docs, query, k1, b) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_ascii_tokenizer_equals_the_regex() -> None:
    import random
    import re

    rng = random.Random(3)
    alphabet = [chr(i) for i in range(128)] + ["é", "ß", "\u212a", "İ", "ﬁ"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        folded = text.casefold().replace("i\u0307", "i")  # "İ" folds to "i" and a combining dot, which goes
        assert tokenize(text) == re.findall(r"[^\W_]+", folded), repr(text)


def _script(ch: str) -> str | None:
    """The script a character's Unicode name gives, for the runs the tokenizer reads as pairs or
    whole (supplementary-plane kana, archaic, are read as other letters)."""
    import unicodedata

    if ch in "々〆〇":
        return "han"
    name = unicodedata.name(ch, "")
    if name.startswith("THAI CHARACTER") and (ch.isalnum() or unicodedata.category(ch) == "Mn"):
        return "thai"
    if not ch.isalnum():  # a mark other than Thai's (the Hangul tone marks) is read with the run it is in
        return None
    if name.startswith(("CJK UNIFIED IDEOGRAPH-", "CJK COMPATIBILITY IDEOGRAPH-")):
        return "han"
    if ord(ch) > 0xFFFF:
        return None
    for script in ("HANGUL", "HIRAGANA", "KATAKANA", "HALFWIDTH KATAKANA"):
        if name.startswith(script):
            return script.removeprefix("HALFWIDTH ").lower()
    return None


def _dropped(ch: str) -> bool:
    """A Hebrew or Arabic vowel point, cantillation or Quranic mark, or the Arabic tatweel."""
    import unicodedata

    name = unicodedata.name(ch, "")
    return name == "ARABIC TATWEEL" or (unicodedata.category(ch) == "Mn" and (
        name.startswith("HEBREW ") or (name.startswith("ARABIC ") and 0x600 <= ord(ch) < 0x700)))


def _inside_a_word(ch: str) -> bool:
    """A letter or digit, or a combining mark (Mn, Mc) other than a variation selector or a mark for symbols."""
    import unicodedata

    if ch.isalnum():
        return True
    return (unicodedata.category(ch) in ("Mn", "Mc") and not unicodedata.name(ch, "").startswith("VARIATION SELECTOR")
            and not 0x20D0 <= ord(ch) <= 0x20FF)


def _reference_tokens(text: str) -> list[str]:
    """Runs of letters, digits and word marks of the case-folded, composed text (Hebrew and Arabic
    points and the dot of a folded "İ" dropped; a run without a letter or digit is no token), each
    cut where the script changes, Han and Hangul runs as overlapping pairs of characters, Thai runs
    too once their marks are dropped (the module doc of authorag.relevance.tokens)."""
    import itertools
    import unicodedata

    out: list[str] = []
    folded = unicodedata.normalize("NFC", text.casefold()).replace("i\u0307", "i")
    folded = "".join(c for c in folded if not _dropped(c))
    inside = [_inside_a_word(c) for c in folded]
    tokens = ["".join(c for c, _ in run) for keep, run in itertools.groupby(zip(folded, inside), key=lambda x: x[1])
              if keep]
    for token in tokens:
        for script, chars in itertools.groupby(token, key=_script):
            run = "".join(chars)
            if script == "thai":
                run = "".join(c for c in run if unicodedata.category(c) != "Mn")
                if not run:
                    continue
            if script in ("han", "hangul", "thai") and len(run) > 1:
                out.extend(run[i:i + 2] for i in range(len(run) - 1))
            elif any(c.isalnum() for c in run):
                out.append(run)
    return out


def test_non_ascii_tokenizer_equals_the_reference_for_every_code_point() -> None:
    # The non-ASCII path replaces the regex (with Chinese, Japanese and Korean runs cut by script
    # and paired): each code point between two letters, and seeded strings of ASCII, Latin, CJK,
    # kana, Hangul, digits of other scripts, spaces, quotes, dashes, surrogates; and a text of more
    # distinct separators than the substitution takes (the regex answers).
    import random
    import re

    regex = re.compile(r"[^\W_]+")
    for start in range(0x80, 0x110000, 16):  # 16 at a time: few enough separators for the substitution
        block = [chr(cp) for cp in range(start, min(start + 16, 0x110000))]
        text = " ".join(f"a{c}b" for c in block)
        assert tokenize(text) == _reference_tokens(text), hex(start)
    for start in (0x0E01, 0x3040, 0x30A0, 0x4E00, 0xAC00, 0xFF66, 0x20000, 0x0900, 0x05D0, 0x0620, 0x0B80):  # one block's runs
        text = "".join(chr(cp) for cp in range(start, start + 40)) + " 1" + chr(start + 41) + chr(start + 42)
        assert tokenize(text) == _reference_tokens(text), hex(start)
    rng = random.Random(5)
    pool = [chr(c) for c in range(0x250)] + [chr(c) for c in (0xA0, 0x2000, 0x2014, 0x2019, 0x201C, 0x3000, 0x4E2D,
                                                            0x0660, 0x00B2, 0x2460, 0xFB01, 0x212A, 0x130, 0xDF,
                                                            0xD800, 0xDFFF, 0x1F600, 0x20AC, 0x3005, 0x3042,
                                                            0x30AB, 0x30FC, 0xAC00, 0x4E8C, 0x20001, 0x0E2B,
                                                            0x0E31, 0x0E48, 0x0E32, 0x0E51, 0x0E3F, 0x0915,
                                                            0x094D, 0x093F, 0x0964, 0x0627, 0x064E, 0x0651, 0x0640,
                                                            0x05E9, 0x05B8, 0x0301, 0x0307, 0xFE0F, 0x20E3, 0x2764)]
    for _ in range(5000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 60)))
        assert tokenize(text) == _reference_tokens(text), repr(text)
    many = " ".join(f"x{chr(0x2000 + i)}y" for i in range(100))
    assert tokenize(many) == regex.findall(many.casefold()) == [c for _ in range(100) for c in "xy"]
    many_thai = many + " หนังสือ健康状態"  # the regex's path reads Thai marks inside words and pairs as well
    assert tokenize(many_thai) == _reference_tokens(many_thai) == [*tokenize(many), "หน", "นง", "งส", "สอ",
                                                                   "健康", "康状", "状態"]
