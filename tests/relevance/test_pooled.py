"""PooledTransformer: the bundled MiniLM read with transformers alone embeds as sentence-transformers does."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from authorag.relevance import dense as dense_module
from authorag.relevance.dense import DenseEncoder, _quantized, default_model_path  # pyright: ignore[reportPrivateUsage]
from authorag.relevance.pooled import PooledTransformer, pooled_pipeline

ROOT = Path(__file__).resolve().parents[2]
LONG = " ".join(["Cranberry juice was tested against urinary tract infections in several small trials."] * 40)
TEXTS = ["cranberry juice", "  zinc lozenges and the common cold  ", LONG, LONG[:600],
         "How to change a flat tyre: loosen the lug nuts, jack up the car and swap the wheel.",
         "Vitamin D supplements and bone fractures in older adults. " * 12, "a", "résumé of a naïve café owner",
         "Melatonin may shorten the time it takes to fall asleep.", "The Python tutorial introduces lists."]


def _st(path: Path, max_tokens: int) -> Any:
    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    model.max_seq_length = max_tokens
    return model


def _encode(model: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.asarray(model.encode(TEXTS, batch_size=4, convert_to_numpy=True, normalize_embeddings=True))


def _variant(tmp_path: Path, pooling: dict[str, Any], modules: list[dict[str, str]] | None = None) -> Path:
    """The bundled model's files linked into ``tmp_path`` with another pooling config (and modules.json)."""
    src = default_model_path()
    for item in src.iterdir():
        if item.is_file():
            os.symlink(item, tmp_path / item.name)
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 384, **pooling}))
    if modules is not None:
        (tmp_path / "modules.json").unlink()
        (tmp_path / "modules.json").write_text(json.dumps(modules))
    return tmp_path


@pytest.mark.parametrize("max_tokens", [64, 128])
def test_fp32_embeddings_equal_sentence_transformers(max_tokens: int) -> None:
    path = default_model_path()
    ours = _encode(PooledTransformer(path, device="cpu", max_tokens=max_tokens))
    theirs = _encode(_st(path, max_tokens))
    assert ours.shape == (len(TEXTS), 384)
    assert float(np.abs(ours - theirs).max()) <= 1e-5


def test_long_texts_are_cut_at_max_tokens() -> None:
    path = default_model_path()
    at_64 = PooledTransformer(path, device="cpu", max_tokens=64)
    assert at_64.max_seq_length == 64
    assert PooledTransformer(path, device="cpu", max_tokens=1000).max_seq_length == 256  # the model's own
    same_lead = at_64.encode([LONG, LONG[:2000]], normalize_embeddings=True)
    assert float(same_lead[0] @ same_lead[1]) == pytest.approx(1.0, abs=1e-6)
    longer = PooledTransformer(path, device="cpu", max_tokens=128).encode([LONG], normalize_embeddings=True)
    assert float(same_lead[0] @ longer[0]) < 0.9999


def test_int8_matches_the_sentence_transformers_int8_path() -> None:
    path = default_model_path()
    ours = _encode(PooledTransformer(path, device="cpu", max_tokens=64, quantize=_quantized))
    theirs = _encode(_quantized(_st(path, 64)))
    for query in range(3):
        ours_cos, theirs_cos = ours @ ours[query], theirs @ theirs[query]
        assert list(np.argsort(-ours_cos)) == list(np.argsort(-theirs_cos))
        assert float(np.abs(ours_cos - theirs_cos).max()) <= 1e-3


@pytest.mark.parametrize("mode", ["cls", "max"])
def test_cls_and_max_pooling_equal_sentence_transformers(tmp_path: Path, mode: str) -> None:
    path = _variant(tmp_path, {f"pooling_mode_{'cls_token' if mode == 'cls' else 'max_tokens'}": True})
    assert pooled_pipeline(path) == (mode, True)
    ours = _encode(PooledTransformer(path, device="cpu", max_tokens=64))
    assert float(np.abs(ours - _encode(_st(path, 64))).max()) <= 1e-5


def test_pipeline_is_read_from_modules_json(tmp_path: Path) -> None:
    transformer = {"idx": "0", "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}
    pooling = {"idx": "1", "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}
    dense = {"idx": "2", "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}
    assert pooled_pipeline(default_model_path()) == ("mean", True)
    for name in "abc":
        (tmp_path / name).mkdir()
    assert pooled_pipeline(_variant(tmp_path / "a", {"pooling_mode": "cls"}, [transformer, pooling])) == ("cls", False)
    assert pooled_pipeline(_variant(tmp_path / "b", {"pooling_mode": "mean"}, [transformer, pooling, dense])) is None
    two_modes = {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": True}
    assert pooled_pipeline(_variant(tmp_path / "c", two_modes)) is None
    assert pooled_pipeline(tmp_path / "missing") is None
    with pytest.raises(ValueError, match="load it with sentence-transformers"):
        PooledTransformer(tmp_path / "c")


def test_unsupported_pipeline_falls_back_to_sentence_transformers(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dense_module, "_MODELS", {})
    path = _variant(tmp_path, {"pooling_mode_mean_sqrt_len_tokens": True})
    assert pooled_pipeline(path) is None
    fallback = DenseEncoder(path, max_tokens=64)
    got = fallback.encode(TEXTS)
    assert isinstance(dense_module._MODELS[(str(path.resolve()), "cpu", 64, "fp32")],  # pyright: ignore[reportPrivateUsage]
                      SentenceTransformer)
    # the mean scaled by the square root of the length points where the mean does
    assert float(np.abs(got - DenseEncoder(max_tokens=64).encode(TEXTS)).max()) <= 1e-5


def test_warm_up_imports_neither_sentence_transformers_nor_transformers_modelling() -> None:
    # the bundled MiniLM is a plain BERT built by torch alone (authorag.relevance.bert): transformers'
    # modelling layer and what it brings (sympy, scipy, torch._dynamo) stay out of the process
    code = ("import sys\nfrom authorag.relevance.dense import DenseRelevance\n"
            "DenseRelevance(precision='int8', max_tokens=64).warm_up()\n"
            "print(sorted(m for m in ('sentence_transformers', 'pandas', 'pyarrow', 'sklearn', "
            "'transformers.modeling_utils', 'transformers.models.bert.modeling_bert', 'sympy', 'scipy', "
            "'torch._dynamo') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env,
                          check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_threads_encoding_at_once_get_the_embeddings_of_one() -> None:
    model = PooledTransformer(default_model_path(), device="cpu", max_tokens=64)
    alone = _encode(model)
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(_encode, [model] * 8))
    assert all(float(np.abs(got - alone).max()) <= 1e-5 for got in together)
