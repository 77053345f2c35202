"""Web-search results: recognise their shape, rerank or filter them with one policy, write them back.

Shapes recognised (what the common search tools return):

* a list of result objects, each with a URL under ``url``, ``link`` or ``href`` (text under
  ``content``, ``snippet``, ``description``, ``text`` or ``body``, a ``title``);
* an object holding such a list under ``results`` (Tavily, Exa, SearXNG), ``search_results``
  (Perplexity), ``organic`` or ``items``, directly or one level down under ``web`` (Brave);
* a JSON string of either (what most tools hand the model).

Anything else is not a search result and is left alone (:func:`find_results` gives None). The
results are ranked by the adapter core (:mod:`authorag.adapters`, the reranker every surface
uses), relevance from the engine's own order by default. The output keeps the input's shape
(a string stays a JSON string; a bare list becomes ``{"results": [...], "authorag": ...}`` so
the note has a place): each kept result is a copy with an ``authority`` entry (the breakdown's
:data:`CITE_KEYS`), and ``authorag`` says how many were kept and which were dropped and why.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from authorag import adapters
from authorag.policy import RerankPolicy
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.domain_lists import DomainList
from authorag.scores import AUTHORITY_SIGNAL_SCORE
from authorag.types import Candidate, Ranking

RESULT_LIST_KEYS: tuple[str, ...] = ("results", "search_results", "organic", "items")
"""Keys of an object that may hold the result list, in the order they are tried."""
NESTED_KEYS: tuple[str, ...] = ("web",)
"""Keys one level down that may hold an object with a result list (Brave's ``web.results``)."""
RESULT_URL_KEYS: tuple[str, ...] = ("url", "link", "href")
"""Keys searched, in order, for a result's URL."""
RESULT_TEXT_KEYS: tuple[str, ...] = ("content", "snippet", "description", "text", "body")
"""Keys searched, in order, for a result's text."""
CITE_KEYS: tuple[str, ...] = ("rank", "domain", "trust", "trust_reason", "tier", "fused", "note")
"""The breakdown fields written under ``authority`` on each kept result (what an agent cites)."""
NOTE_KEY = "authorag"
"""The output key of the note: ``{"kept": n, "dropped": [{"url", "domain", "reason"}...]}``."""
AUTHORITY_KEY = "authority"
"""The key each kept result's breakdown is written under."""


@dataclass(frozen=True, slots=True)
class SearchResults:
    """A recognised result list and where it sits in the tool's output.

    Attributes:
        items: the result objects, in the engine's order.
        path: the keys leading from the output to the list (``()`` for a bare list).
        root: the parsed output (the list itself for a bare list).
        was_string: the output was a JSON string (the rewritten output is one too).
    """

    items: list[Mapping[str, Any]]
    path: tuple[str, ...]
    root: Any
    was_string: bool


def _is_result_list(value: object) -> bool:
    if not isinstance(value, list) or not value:
        return False
    for item in cast(list[object], value):
        if not isinstance(item, Mapping):
            return False
        row = cast(Mapping[str, Any], item)
        if not any(isinstance(row.get(k), str) for k in RESULT_URL_KEYS):
            return False
    return True


def _locate(value: object) -> tuple[list[Mapping[str, Any]], tuple[str, ...]] | None:
    if _is_result_list(value):
        return cast(list[Mapping[str, Any]], value), ()
    if not isinstance(value, Mapping):
        return None
    obj = cast(Mapping[str, Any], value)
    for key in RESULT_LIST_KEYS:
        if _is_result_list(obj.get(key)):
            return obj[key], (key,)
    for outer in NESTED_KEYS:
        inner = obj.get(outer)
        if isinstance(inner, Mapping):
            found = _locate({k: v for k, v in cast(Mapping[str, Any], inner).items() if k in RESULT_LIST_KEYS})
            if found is not None:
                return found[0], (outer, *found[1])
    return None


def find_results(output: object) -> SearchResults | None:
    """The search results in a tool's output, or None when it holds none (left alone then).

    Example:
        >>> found = find_results('{"results": [{"url": "https://www.nih.gov/x", "content": "a"}]}')
        >>> found.path, found.was_string, found.items[0]["url"]
        (('results',), True, 'https://www.nih.gov/x')
        >>> find_results("sunny, 21 degrees") is None
        True
    """
    was_string = isinstance(output, str)
    if was_string:
        text = output.strip()
        if not text.startswith(("[", "{")):
            return None
        try:
            output = json.loads(text)
        except ValueError:
            return None
    found = _locate(output)
    if found is None:
        return None
    return SearchResults(found[0], found[1], output, was_string)


def _first_text(item: Mapping[str, Any], keys: Sequence[str]) -> str:
    for key in keys:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def result_text(item: Mapping[str, Any]) -> str:
    """A result's title and text, joined (what relevance and the page evidence read)."""
    title, text = _first_text(item, ("title",)), _first_text(item, RESULT_TEXT_KEYS)
    return f"{title}\n{text}" if title and text else title or text


class ResultFilter:
    """Rerank or filter search results with one reranker and policy (the adapter core).

    Args:
        reranker: from :func:`authorag.adapters.build_reranker`.
        mode: its relevance mode (``"rank"``: the engine's order).
        top_n: keep at most this many results (None keeps all the policy keeps).

    Example:
        >>> from authorag.adapters import build_reranker
        >>> flt = ResultFilter(*build_reranker(relevance="rank", policy={"deny": ["*.blogspot.com"]}))
        >>> out = flt.apply("q", find_results([{"url": "https://a.blogspot.com/x"}, {"url": "https://www.nih.gov/y"}]))
        >>> [r["url"] for r in out["results"]], out["authorag"]["dropped"][0]["reason"]
        (['https://www.nih.gov/y'], 'matches the deny list')
    """

    def __init__(self, reranker: AuthorityReranker, mode: str, top_n: int | None = None) -> None:
        self.reranker, self.mode, self.top_n = reranker, mode, adapters.check_top("top_n", top_n)
        self._deny = DomainList.compile(reranker.policy.deny)

    def candidates(self, found: SearchResults) -> tuple[list[Candidate], str]:
        """One candidate per result (ids are positions), and the relevance source."""
        items = found.items
        urls = [adapters.url_from_metadata(i, RESULT_URL_KEYS) for i in items]
        upstream = adapters.upstream_scores(self.mode, [i.get("score") for i in items])
        return adapters.candidates_of(urls, [result_text(i) for i in items], upstream, self.mode)

    def apply(self, query: str, found: SearchResults) -> Any:
        """The tool output rewritten: kept results in order with their breakdown, and the note."""
        cands, source = self.candidates(found)
        ranking = self.reranker.rerank_owned(query, cands, top_k=self.top_n)
        return self.render(found, ranking, source)

    async def aapply(self, query: str, found: SearchResults) -> Any:
        """Async twin of :meth:`apply` (scoring runs off the event loop)."""
        cands, source = self.candidates(found)
        ranking = await self.reranker.arerank_owned(query, cands, top_k=self.top_n)
        return self.render(found, ranking, source)

    def render(self, found: SearchResults, ranking: Ranking, source: str) -> Any:
        """The output in the input's shape (see the module docstring)."""
        kept: list[dict[str, Any]] = []
        for rank, (cand, row) in enumerate(zip(ranking.candidates, adapters.breakdowns(ranking, source)), 1):
            row["rank"] = rank
            item = dict(found.items[int(cand.id)])
            item[AUTHORITY_KEY] = {k: row.get(k) for k in CITE_KEYS}
            kept.append(item)
        note = {"kept": len(kept), "dropped": [self.dropped(c) for c in ranking.dropped]}
        out: dict[str, Any] = _replace(found.root, found.path, kept) if found.path else {"results": kept}
        out[NOTE_KEY] = note
        return json.dumps(out, ensure_ascii=False) if found.was_string else out

    def dropped(self, cand: Candidate) -> dict[str, Any]:
        """Why a result was dropped: the deny list, ``min_authority`` or the count cap."""
        policy: RerankPolicy = self.reranker.policy
        signal = cand.scores.get(AUTHORITY_SIGNAL_SCORE)
        if self._deny and self._deny.matches_candidate(cand):
            reason = "matches the deny list"
        elif policy.min_authority is not None and (cand.authority is None or cand.authority.authority is None):
            reason = "source unknown to the priors (min_authority drops unknown sources)"
        elif policy.min_authority is not None and signal is not None and signal < policy.min_authority:
            reason = f"trust {signal:.2f} below min_authority {policy.min_authority:g}"
        else:
            reason = "beyond the number of results kept (top_n/top_k)"
        return {"url": cand.url or None, "domain": cand.domain, "trust": signal, "reason": reason}


def _replace(root: Any, path: tuple[str, ...], kept: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy of ``root`` with the list at ``path`` replaced (only the dicts on the path are copied)."""
    out = dict(cast(Mapping[str, Any], root))
    if len(path) == 1:
        out[path[0]] = kept
    else:
        out[path[0]] = _replace(out[path[0]], path[1:], kept)
    return out


__all__ = ["AUTHORITY_KEY", "CITE_KEYS", "NESTED_KEYS", "NOTE_KEY", "RESULT_LIST_KEYS", "RESULT_TEXT_KEYS",
           "RESULT_URL_KEYS", "ResultFilter", "SearchResults", "find_results", "result_text"]
