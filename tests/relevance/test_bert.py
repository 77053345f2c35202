"""load_bert: the bundled MiniLM built with torch alone gives transformers' BERT token embeddings, bit for bit."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from authorag.relevance.bert import bert_tokens, load_bert, plain_bert
from authorag.relevance.dense import _quantized, default_model_path  # pyright: ignore[reportPrivateUsage]

LONG = " ".join(["Cranberry juice was tested against urinary tract infections in several small trials."] * 40)
TEXTS = ["cranberry juice", "  zinc lozenges and the common cold  ", LONG, LONG[:600], "a",
         "résumé of a naïve café owner", "Welche Unterlagen brauche ich für eine Hypothek? 東京 🙂",
         "ImportError: attempted relative import with no known parent package",
         "Melatonin may shorten the time it takes to fall asleep.", "The Python tutorial introduces lists."]


@pytest.fixture(scope="module")
def models() -> dict[str, tuple[Any, Any]]:
    """(transformers' model, ours) in fp32 and int8."""
    path = default_model_path()
    config = plain_bert(path)
    assert config is not None
    theirs = AutoModel.from_pretrained(str(path), local_files_only=True).eval()
    ours = load_bert(path, config)
    return {"fp32": (theirs, ours), "int8": (_quantized(theirs), _quantized(ours))}


@pytest.mark.parametrize("precision", ["fp32", "int8"])
@pytest.mark.parametrize(("batch", "max_tokens"), [(1, 64), (3, 64), (4, 128), (10, 256)])
def test_token_embeddings_equal_transformers_bert(models: dict[str, tuple[Any, Any]], precision: str,
                                                  batch: int, max_tokens: int) -> None:
    tokenizer = AutoTokenizer.from_pretrained(str(default_model_path()), use_fast=True, local_files_only=True)
    theirs, ours = models[precision]
    padded = 0
    with torch.inference_mode():
        for start in range(0, len(TEXTS), batch):
            f = tokenizer(TEXTS[start:start + batch], padding=True, truncation="longest_first", max_length=max_tokens,
                          return_tensors="pt")
            padded += not bool(f["attention_mask"].all())
            want = theirs(**f, return_dict=False)[0]
            got = bert_tokens(ours, 12, f["input_ids"], f["token_type_ids"], f["attention_mask"])
            assert torch.equal(got, want)
    # both mask paths are compared: a batch of one text has no padding, the others have some
    assert padded == sum(len(TEXTS[start:start + batch]) > 1 for start in range(0, len(TEXTS), batch))


def _variant(tmp_path: Path, **changes: Any) -> Path:
    """The bundled model's files linked into ``tmp_path`` with ``changes`` to its config.json."""
    for item in default_model_path().iterdir():
        if item.is_file() and item.name != "config.json":
            os.symlink(item, tmp_path / item.name)
    config = json.loads((default_model_path() / "config.json").read_text(encoding="utf-8"))
    (tmp_path / "config.json").write_text(json.dumps({**config, **changes}), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("changes", [{"model_type": "roberta"}, {"is_decoder": True}, {"hidden_act": "gelu_new"},
                                     {"position_embedding_type": "relative_key"},
                                     {"architectures": ["BertForMaskedLM"]}, {"torch_dtype": "float16"}])
def test_plain_bert_leaves_other_models_to_transformers(tmp_path: Path, changes: dict[str, Any]) -> None:
    assert plain_bert(_variant(tmp_path, **changes)) is None


def test_plain_bert_needs_safetensors_weights(tmp_path: Path) -> None:
    path = _variant(tmp_path)
    assert plain_bert(path) is not None
    (path / "model.safetensors").unlink()
    assert plain_bert(path) is None


def test_weights_of_another_shape_are_a_clear_error(tmp_path: Path) -> None:
    path = _variant(tmp_path, num_hidden_layers=7)
    config = plain_bert(path)
    assert config is not None
    with pytest.raises(ValueError, match=r"model\.safetensors does not hold the weights of the BERT encoder .*"
                                         r"load the model with transformers"):
        load_bert(path, config)


@pytest.mark.parametrize("bert_config", ["missing", "without max_seq_length"])
def test_position_limit_comes_from_the_config_when_sentence_bert_config_has_none(tmp_path: Path,
                                                                                 bert_config: str) -> None:
    from types import SimpleNamespace

    from authorag.relevance.pooled import _max_seq_length  # pyright: ignore[reportPrivateUsage]

    if bert_config != "missing":
        (tmp_path / "sentence_bert_config.json").write_text(json.dumps({"do_lower_case": False}), encoding="utf-8")
    unbounded = SimpleNamespace(model_max_length=10**30)  # a tokenizer without a limit of its own
    assert _max_seq_length(tmp_path, unbounded, None, {"max_position_embeddings": 384}) == 384
    assert _max_seq_length(tmp_path, unbounded, SimpleNamespace(config=SimpleNamespace(max_position_embeddings=256))) \
        == 256
