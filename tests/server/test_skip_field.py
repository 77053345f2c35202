"""The server's ``judge_skipped`` comes from the detail's typed ``skipped`` field, never from its
free-text note: a note that reads like a skip names none, a skip code needs no words."""
from __future__ import annotations

from collections.abc import Sequence

from authorag.judges.deadline import SKIP_CODES
from authorag.server.config import ServerConfig
from authorag.server.schemas import RerankRequest
from authorag.server.service import RerankService
from authorag.types import AuthorityDetail, Candidate


class _GivenDetails:
    """A scorer that answers each host with the detail given for it."""

    name = "given"

    def __init__(self, details: dict[str, AuthorityDetail]) -> None:
        self.details = details

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        return [self.details[c.host or ""] for c in candidates]


def test_judge_skipped_is_read_from_the_field_not_the_note() -> None:
    scorer = _GivenDetails({
        "zq-a.biz": AuthorityDetail(None, 0.0, "unknown", note=f"table: none; {SKIP_CODES['circuit_open']}"),
        "zq-b.biz": AuthorityDetail(None, 0.0, "unknown", note="no words about it", skipped="pool_busy"),
        "zq-c.biz": AuthorityDetail(0.8, 1.0, "table"),
    })
    service = RerankService(ServerConfig(relevance="rank"), scorer=scorer)
    docs = [{"text": "t", "url": f"https://{h}/p"} for h in ("zq-a.biz", "zq-b.biz", "zq-c.biz")]
    out = service.rerank(RerankRequest.model_validate({"query": "q", "documents": docs}), "v2")
    flags = {r["index"]: r["authority"].get("judge_skipped") for r in out["results"]}
    assert flags == {0: None, 1: "pool_busy", 2: None}
    assert out["meta"]["authorag"]["judge_skipped"] == [1]
