"""RAGAuth-open: TREC 2019 Health Misinformation yes/no questions as 10-document instances.

Each of the 22 topics with a yes/no answer becomes one or more instances. A topic with at least
10 judged documents gives ⌊min(#supportive, #dissuasive) / 5⌋ disjoint instances of 5 supportive
+ 5 dissuasive documents (seeded draw); a smaller topic gives one instance with all of its
documents. Stance is balanced by construction, so what a filter keeps decides the answer.

Example:
    >>> task = load_rag_task()
    >>> len({i.topic_id for i in task.instances}), task.instances[0].gold in (0, 1)
    (22, True)
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from authorag.benchmarks.tasks import BenchItem, read_rows
from authorag.errors import ConfigError

INSTANCE_SIZE = 10
INSTANCE_SEED = 0
RESAMPLED_DRAWS = 25
"""Draws per topic of ``ragauth-trec2019-resampled`` (seed ``INSTANCE_SEED``)."""
RAG_TASK_NAMES = ("ragauth-trec2019", "ragauth-trec2019-resampled")
TREC_FILE = "authorag.benchmarks.data/trec_hm2019.csv.gz"

# Topic 13's description is an instruction ("Find documents that discuss ..."), not a question.
QUESTION_REWRITES: Mapping[int, str] = {
    13: "Can antidepressants help manage or relieve lower back pain?",
}


@dataclass(frozen=True, slots=True)
class RagInstance:
    """One question with its candidate documents.

    Attributes:
        id: ``"<topic>-<draw>"``.
        topic_id: TREC topic number.
        question: natural-language yes/no question.
        query: TREC keyword query (what a relevance scorer sees).
        gold: 1 = the answer is yes (TREC ``helpful``), 0 = no (``unhelpful``).
        documents: documents in a fixed shuffled order (the "none" filter keeps the first k);
            ``level`` = NIST credibility (0/1); ``meta`` holds ``stance`` (1 supportive,
            0 dissuasive) and ``usefulness`` (1/2).
    """

    id: str
    topic_id: int
    question: str
    query: str
    gold: int
    documents: tuple[BenchItem, ...]


@dataclass(frozen=True, slots=True)
class RagTask:
    """The RAGAuth-open task: instances plus where they came from.

    ``ci_unit`` is what the bootstrap resamples: ``instance`` (the 33 disjoint instances) or
    ``topic`` (the resampled task: its 25 draws per topic share documents, so only whole topics
    are independent).
    """

    name: str
    instances: tuple[RagInstance, ...]
    data_files: tuple[str, ...]
    description: str
    ci_unit: Literal["instance", "topic"] = "instance"


def _doc(row: dict[str, str]) -> BenchItem:
    return BenchItem(
        key=row["doc_id"], url=row["url"], level=int(row["credibility"]), text=row["text"],
        meta={"stance": int(row["stance"]), "usefulness": int(row["usefulness"]), "topic_id": int(row["topic_id"])},
    )


def draw_instances(docs: list[BenchItem], rng: random.Random, size: int = INSTANCE_SIZE) -> list[list[BenchItem]]:
    """Split one topic's documents into disjoint, stance-balanced draws of ``size``.

    Fewer than ``size`` documents: one draw with all of them. Otherwise
    ⌊min(#stance 1, #stance 0) / (size/2)⌋ draws of size/2 + size/2 documents, none reused.

    Example:
        >>> import random
        >>> docs = [BenchItem(str(i), "", 0, meta={"stance": i % 2}) for i in range(24)]
        >>> [len(d) for d in draw_instances(docs, random.Random(0))]
        [10, 10]
    """
    if size % 2:
        raise ConfigError(f"instance size must be even (half per stance), got {size}")
    if len(docs) < size:
        out = list(docs)
        rng.shuffle(out)
        return [out]
    pos = [d for d in docs if d.meta["stance"] == 1]
    neg = [d for d in docs if d.meta["stance"] == 0]
    rng.shuffle(pos)
    rng.shuffle(neg)
    half = size // 2
    draws: list[list[BenchItem]] = []
    for i in range(min(len(pos), len(neg)) // half):
        draw = pos[i * half:(i + 1) * half] + neg[i * half:(i + 1) * half]
        rng.shuffle(draw)
        draws.append(draw)
    return draws


def resample_instances(docs: list[BenchItem], rng: random.Random, draws: int = RESAMPLED_DRAWS,
                       size: int = INSTANCE_SIZE) -> list[list[BenchItem]]:
    """``draws`` independent stance-balanced draws of one topic's documents (reused across draws).

    Each draw takes min(size/2, #stance 1, #stance 0) documents of each stance without
    replacement, in shuffled order; a topic with fewer documents gives reshuffles of them all.

    Example:
        >>> import random
        >>> docs = [BenchItem(str(i), "", 0, meta={"stance": i % 2}) for i in range(24)]
        >>> [len(d) for d in resample_instances(docs, random.Random(0), draws=3)]
        [10, 10, 10]
    """
    pos = [d for d in docs if d.meta["stance"] == 1]
    neg = [d for d in docs if d.meta["stance"] == 0]
    half = min(size // 2, len(pos), len(neg))
    out: list[list[BenchItem]] = []
    for _ in range(draws):
        draw = rng.sample(pos, half) + rng.sample(neg, half)
        rng.shuffle(draw)
        out.append(draw)
    return out


@cache
def load_rag_task(name: str = "ragauth-trec2019") -> RagTask:
    """Build the RAGAuth-open instances (deterministic: seed ``INSTANCE_SEED``).

    ``ragauth-trec2019``: disjoint draws (33 instances). ``ragauth-trec2019-resampled``:
    ``RESAMPLED_DRAWS`` seeded draws per topic (550 instances), CIs by topic.
    """
    if name not in RAG_TASK_NAMES:
        raise ConfigError(f"unknown RAG task {name!r}; known: {', '.join(map(repr, RAG_TASK_NAMES))}")
    resampled = name == "ragauth-trec2019-resampled"
    topics: dict[int, list[dict[str, str]]] = {}
    for row in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz"):
        if row["correct_stance"] in ("helpful", "unhelpful"):
            topics.setdefault(int(row["topic_id"]), []).append(row)
    rng = random.Random(INSTANCE_SEED)
    instances: list[RagInstance] = []
    for topic_id in sorted(topics):
        rows = sorted(topics[topic_id], key=lambda r: r["doc_id"])
        first = rows[0]
        question = QUESTION_REWRITES.get(topic_id, first["description"])
        gold = 1 if first["correct_stance"] == "helpful" else 0
        docs = [_doc(r) for r in rows]
        draws = resample_instances(docs, rng) if resampled else draw_instances(docs, rng)
        for n, draw in enumerate(draws):
            instances.append(RagInstance(f"{topic_id}-{n}", topic_id, question, first["query"], gold, tuple(draw)))
    if resampled:
        return RagTask(name, tuple(instances), (TREC_FILE,),
                       f"TREC HM 2019: 22 yes/no questions x {RESAMPLED_DRAWS} seeded stance-balanced draws, "
                       "CIs by topic", "topic")
    return RagTask(name, tuple(instances), (TREC_FILE,),
                   "TREC HM 2019: 22 yes/no health questions, stance-balanced 10-document instances")
