"""A BERT encoder read from its ``config.json`` and ``model.safetensors`` with torch alone (:func:`load_bert`).

``transformers.AutoModel`` builds a BERT model through transformers' modelling layer, whose import
brings sympy, scipy, torch's compiler and its distributed package into the process: about a
hundred and twenty megabytes of modules a server worker holds for as long as it lives, for a
model whose weights are a fraction of that. For a plain BERT encoder (absolute positions, GELU,
no decoder: :func:`plain_bert`, which all-MiniLM-L6-v2 is) this module builds the same layers
from torch's own modules, loads the same weights and runs the same operations in the same order
as transformers' BERT with its default attention (``scaled_dot_product_attention`` with a boolean
padding mask, none without padding), so the token embeddings are the same, bit for bit
(``tests/relevance/test_bert.py`` compares them). Any other model goes through ``AutoModel``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

WEIGHTS = "model.safetensors"
"""The weights file :func:`load_bert` reads (safetensors; a directory with only other formats goes
through transformers)."""

_PLAIN = {"model_type": "bert", "position_embedding_type": "absolute", "hidden_act": "gelu"}


def plain_bert(path: Path) -> dict[str, Any] | None:
    """``path``'s ``config.json`` when it describes a plain BERT encoder :func:`load_bert` builds
    (model type ``bert``, absolute positions, exact GELU, not a decoder, architecture ``BertModel``
    or none, weights in :data:`WEIGHTS`); else None."""
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(config, dict) or not (path / WEIGHTS).is_file():
        return None
    plain = all(config.get(key, value) == value for key, value in _PLAIN.items()) and config.get("model_type") == "bert"
    plain = plain and not config.get("is_decoder", False) and not config.get("add_cross_attention", False)
    plain = plain and config.get("architectures", ["BertModel"]) == ["BertModel"] and not config.get("torch_dtype")
    return config if plain else None  # pyright: ignore[reportUnknownVariableType]


def _layer(config: dict[str, Any]) -> Any:
    """One encoder layer's modules, named as in the weights file (their weights replaced by the file's)."""
    from torch import nn

    hidden, inner, eps = int(config["hidden_size"]), int(config["intermediate_size"]), float(config["layer_norm_eps"])

    def norm() -> nn.LayerNorm:
        return nn.LayerNorm(hidden, eps=eps)

    return nn.ModuleDict({
        "attention": nn.ModuleDict({
            "self": nn.ModuleDict({"query": nn.Linear(hidden, hidden), "key": nn.Linear(hidden, hidden),
                                   "value": nn.Linear(hidden, hidden)}),
            "output": nn.ModuleDict({"dense": nn.Linear(hidden, hidden), "LayerNorm": norm()})}),
        "intermediate": nn.ModuleDict({"dense": nn.Linear(hidden, inner)}),
        "output": nn.ModuleDict({"dense": nn.Linear(inner, hidden), "LayerNorm": norm()})})


def bert_layers(config: dict[str, Any]) -> Any:
    """The encoder's layers (``num_hidden_layers`` of ``config``) as a ``torch.nn.ModuleList``, named as
    in a BERT weights file under ``encoder.layer`` (weights to be loaded); run each with
    :func:`bert_layer_forward`."""
    from torch import nn

    return nn.ModuleList([_layer(config) for _ in range(int(config["num_hidden_layers"]))])


def load_bert(path: Path, config: dict[str, Any]) -> Any:
    """The encoder of ``path`` (:func:`plain_bert` gave ``config``) as a ``torch.nn.ModuleDict`` in
    eval mode, its weights read from :data:`WEIGHTS` (the pooler's are not used); run it with
    :func:`bert_tokens`.

    Raises:
        ValueError: the weights file lacks a weight the encoder needs or has one of another shape.
    """
    from safetensors.torch import load_file
    from torch import nn

    hidden, eps = int(config["hidden_size"]), float(config["layer_norm_eps"])
    embeddings = nn.ModuleDict({
        "word_embeddings": nn.Embedding(int(config["vocab_size"]), hidden),
        "position_embeddings": nn.Embedding(int(config["max_position_embeddings"]), hidden),
        "token_type_embeddings": nn.Embedding(int(config.get("type_vocab_size", 2)), hidden),
        "LayerNorm": nn.LayerNorm(hidden, eps=eps)})
    layers = bert_layers(config)
    model = nn.ModuleDict({"embeddings": embeddings, "encoder": nn.ModuleDict({"layer": layers})})
    weights = {k: v for k, v in load_file(str(path / WEIGHTS)).items() if not k.startswith("pooler.")}
    weights.pop("embeddings.position_ids", None)
    try:
        model.load_state_dict(weights, strict=True, assign=True)
    except RuntimeError as exc:
        raise ValueError(f"{path / WEIGHTS} does not hold the weights of the BERT encoder its config.json "
                         f"describes ({str(exc).splitlines()[0]}); load the model with transformers") from exc
    return model.eval()


def bert_tokens(model: Any, heads: int, input_ids: Any, token_type_ids: Any, attention_mask: Any) -> Any:
    """The last layer's token embeddings of :func:`load_bert`'s ``model`` (``heads`` attention heads,
    the config's ``num_attention_heads``), shape ``(batch, tokens, hidden)``: the operations of
    transformers' BERT in eval mode, in its order (dropout is the identity there)."""
    import torch

    emb = model["embeddings"]
    positions = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
    hidden = emb["word_embeddings"](input_ids) + emb["token_type_embeddings"](token_type_ids)
    hidden = emb["LayerNorm"](hidden + emb["position_embeddings"](positions))
    batch, length = input_ids.shape
    mask = None if bool(attention_mask.all()) else \
        attention_mask.bool()[:, None, None, :].expand(batch, 1, length, length)
    for layer in model["encoder"]["layer"]:
        hidden = bert_layer_forward(layer, hidden, mask, heads)
    return hidden


def bert_layer_forward(layer: Any, hidden: Any, mask: Any, heads: int) -> Any:
    """One encoder layer (:func:`bert_layers`) on ``hidden`` ``(batch, tokens, width)``: self-attention
    (``mask``: a boolean ``(batch, 1, tokens, tokens)`` padding mask, or None), its residual and norm,
    then the feed-forward block's."""
    from torch.nn import functional

    batch, length, width = hidden.shape
    size = width // heads
    att = layer["attention"]["self"]
    q, k, v = (att[name](hidden).view(batch, length, heads, size).transpose(1, 2) for name in ("query", "key", "value"))
    context = functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0, scale=size ** -0.5,
                                                      is_causal=False)
    context = context.transpose(1, 2).contiguous().reshape(batch, length, -1).contiguous()
    out = layer["attention"]["output"]
    hidden = out["LayerNorm"](out["dense"](context) + hidden)
    inner = functional.gelu(layer["intermediate"]["dense"](hidden))
    out = layer["output"]
    return out["LayerNorm"](out["dense"](inner) + hidden)


__all__ = ["WEIGHTS", "bert_layer_forward", "bert_layers", "bert_tokens", "load_bert", "plain_bert"]
