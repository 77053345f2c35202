"""Domain-name features of the learned prior: values worked out by hand, determinism, errors."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.errors import ConfigError
from authorag.priors.learned.features import (
    DENSE_NAMES,
    PAD,
    featurize,
    split_domain,
    suffix_class,
    to_sparse,
)


def _dense(domain: str) -> dict[str, float]:
    row = featurize([domain]).dense[0]
    return {name: float(v) for name, v in zip(DENSE_NAMES, row, strict=True)}


@pytest.mark.parametrize(("suffix", "expected"), [
    ("gov", "gov"), ("edu", "edu"), ("mil", "mil"), ("int", "int"), ("gov.uk", "cc_gov"),
    ("gouv.fr", "cc_gov"), ("ac.jp", "cc_academic"), ("edu.au", "cc_academic"), ("co.uk", "cc_second_level"),
    ("de", "cctld"), ("com", "legacy_generic"), ("biz", "legacy_generic"), ("shop", "new_gtld"),
    ("xyz", "new_gtld"), ("blogspot.com", "private"), ("github.io", "private"),
])
def test_suffix_class(suffix: str, expected: str) -> None:
    assert suffix_class(suffix) == expected


def test_split_domain() -> None:
    assert split_domain("bbc.co.uk") == ("bbc", "co.uk")
    assert split_domain("best-cheap-pills-online.biz") == ("best-cheap-pills-online", "biz")


def test_keyword_stuffed_name() -> None:
    d = _dense("best-cheap-pills-online.biz")
    # best, cheap, pill, pills, online are in the spam word list.
    assert d["spam_words"] == 5.0
    assert d["spam_2_up"] == 1.0
    assert d["hyphens_3_up"] == 1.0
    assert d["len_21_up"] == 1.0
    assert d["suffix_legacy_generic"] == 1.0
    assert d["tokens_log"] == pytest.approx(np.log1p(4))


def test_brand_and_digits() -> None:
    d = _dense("a1-b.co.uk")
    assert d["digits_1"] == 1.0 and d["digit_share"] == pytest.approx(0.25)
    assert d["hyphens_1"] == 1.0 and d["len_4_5"] == 1.0
    assert d["word_cover_none"] == 1.0 and d["brand_like"] == 0.0
    assert d["suffix_cc_second_level"] == 1.0
    assert _dense("nasa.gov")["word_cover_full"] == 1.0
    assert _dense("xn--bcher-kva.de")["punycode"] == 1.0


def test_hashed_slot_count() -> None:
    # "^ab$": three 2-grams, two 3-grams, one 4-gram, no 5-gram; one token; suffix + last label.
    feats = featurize(["ab.com"])
    ones = np.ones(PAD + 1, dtype=np.float32)
    ones[PAD] = 0.0
    assert float(feats.hashed_sum(ones)[0]) == 9.0


def test_deterministic_and_batch_independent() -> None:
    domains = ["nytimes.com", "a-very-long-domain-name-for-the-third-bucket.org", "bbc.co.uk", "x.io"]
    a, b = featurize(domains), featurize(domains)
    assert np.array_equal(a.dense, b.dense)
    assert (to_sparse(a) != to_sparse(b)).nnz == 0  # type: ignore[attr-defined]
    alone = featurize(["bbc.co.uk"])
    weights = np.random.default_rng(0).normal(size=PAD + 1).astype(np.float32)
    weights[PAD] = 0.0
    assert a.hashed_sum(weights)[2] == pytest.approx(alone.hashed_sum(weights)[0])
    assert np.array_equal(a.dense[2], alone.dense[0])


def test_sparse_shape() -> None:
    x = to_sparse(featurize(["nytimes.com", "bbc.co.uk"]))
    assert x.shape == (2, PAD + len(DENSE_NAMES))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("bad", "match"), [
    ("localhost", "registrable domain"),
    ("Bad!.com", "must be letters"),
    ("bücher.de", "punycode"),
    (".com", "must be letters"),
    (123, "got int"),
])
def test_bad_input(bad: object, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        featurize(["ok.com", bad])  # type: ignore[list-item]


def test_empty_batch() -> None:
    assert len(featurize([])) == 0
