"""Post-enforcement: which search results break the policy, and the results reranked (``authorag check``).

Provider filters leak (a result from a domain outside ``include_domains``, a denied host through a
redirect), so this reads the results as they came back, from any of the shapes
:func:`authorag.websearch.results.find_results` recognises, and reports per response:

* ``violations``: each result the policy drops, with the reason (deny list, ``min_authority``,
  the count cap) and, with ``only_allowed``, each result outside the policy's allow list;
* ``results``: the kept results in the policy's order, each with its ``authority`` breakdown.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from authorag.errors import ConfigError
from authorag.rerankers.domain_lists import DomainList
from authorag.websearch.results import (
    AUTHORITY_KEY,
    NOTE_KEY,
    RESULT_URL_KEYS,
    ResultFilter,
    find_results,
)

MAX_CHECK_RESULTS = 10_000
"""Most results one ``authorag check`` run reads (over all responses); more is refused before scoring."""


def parse_responses(text: str, where: str) -> list[Any]:
    """The search responses in ``text``: one JSON value, or JSON lines (each a response, or one
    result object; consecutive result lines form one response).

    Raises:
        ConfigError: text that is neither, naming the line.
    """
    stripped = text.strip()
    if not stripped:
        raise ConfigError(f"{where}: empty; give a search API response (JSON) or JSON lines")
    try:
        return [json.loads(stripped)]
    except ValueError:
        pass
    out: list[Any] = []
    loose: list[Any] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise ConfigError(f"{where}:{n}: not JSON ({exc}); give one JSON value or one JSON object per line") from exc
        if find_results([value]) is not None and find_results(value) is None:
            loose.append(value)
        else:
            out.append(value)
    return out + ([loose] if loose else [])


def check_responses(flt: ResultFilter, responses: Sequence[Any], query: str = "",
                    only_allowed: bool = False) -> dict[str, Any]:
    """The check report (see the module docstring) for ``responses``.

    Raises:
        ConfigError: a response with no recognisable results, or more than :data:`MAX_CHECK_RESULTS` results.
    """
    found = [find_results(r) for r in responses]
    bad = [i + 1 for i, f in enumerate(found) if f is None]
    if bad:
        raise ConfigError(f"response(s) {bad} hold no search results: give objects with a URL under "
                          f"{'/'.join(RESULT_URL_KEYS)}, in a list or under 'results'")
    total = sum(len(f.items) for f in found if f is not None)
    if total > MAX_CHECK_RESULTS:
        raise ConfigError(f"{total} results, over the limit of {MAX_CHECK_RESULTS} per run; split the input")
    allow = DomainList.compile(flt.reranker.policy.allow)
    if only_allowed and not allow:
        raise ConfigError("only_allowed (--only-allowed) checks results against the allow list, which is empty; "
                          "give the domains the provider was asked to include with --allow")
    reports: list[dict[str, Any]] = []
    for response, f in zip(responses, found):
        assert f is not None
        q = cast(Mapping[str, Any], response).get("query") if isinstance(response, Mapping) else None
        out = flt.apply(query or (q if isinstance(q, str) else ""), f)
        out = json.loads(out) if isinstance(out, str) else out
        reports.append(_report(out, only_allowed, allow))
    return {"responses": reports, "violations": sum(len(r["violations"]) for r in reports),
            "results": total, "policy": flt.reranker.policy.to_dict()}


def _report(out: Any, only_allowed: bool, allow: DomainList) -> dict[str, Any]:
    found = find_results(out)
    kept: list[Mapping[str, Any]] = [] if found is None else found.items
    note = cast(Mapping[str, Any], out)[NOTE_KEY]
    violations = [dict(d) for d in note["dropped"]]
    if only_allowed:
        for item in kept:
            domain = item[AUTHORITY_KEY]["domain"]
            if not allow.matches(domain):
                url = next((item[k] for k in RESULT_URL_KEYS if isinstance(item.get(k), str)), None)
                violations.append({"url": url, "domain": domain, "trust": item[AUTHORITY_KEY]["trust"],
                                   "reason": "outside the allow list"})
        allowed = [i for i in kept if allow.matches(i[AUTHORITY_KEY]["domain"])]
        kept = allowed
    return {"violations": violations, "results": list(kept)}


__all__ = ["MAX_CHECK_RESULTS", "check_responses", "parse_responses"]
