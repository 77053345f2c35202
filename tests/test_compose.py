"""The one composition: ScorerSettings → load_scorer, the same on every surface."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from authorag.compose import (
    ScorerSettings,
    add_scorer_options,
    composition_name,
    load_scorer,
    settings_from_args,
)
from authorag.errors import ConfigError
from authorag.types import candidates_from

URLS = ["https://www.nih.gov/health", "https://johndoe.wordpress.com/x", "https://site77.example.com/",
        "https://someone.blogspot.com/x", "https://zq-unknown-site-2931.biz/x", "https://www.cdc.gov/flu",
        "https://medium.com/about", "http://10.0.0.1/x"]
TIERS = ["table", "hosted", "reserved", "hosted", "unknown", "table", "table", "reserved"]


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_scorer_options(p)
    return p.parse_args(argv)


def test_default_composition_tiers() -> None:
    scorer = load_scorer(ScorerSettings())
    details = scorer.score(candidates_from(URLS))
    assert [d.tier for d in details] == TIERS
    assert scorer.name == "reserved>hosted>table"
    assert details[1].authority == 0.4 and details[1].matched == "johndoe.wordpress.com"
    assert details[1].note is not None and "user content (blog) on wordpress.com" in details[1].note
    assert details[2].authority is None and "RFC 2606" in (details[2].note or "")
    assert load_scorer(ScorerSettings()) is scorer  # cached per settings


def test_an_upload_takes_no_trust_from_its_platforms_suffix_or_links() -> None:
    """academia.edu is a company on a grandfathered .edu name: its uploads are user content, as
    are a Read the Docs project's pages and a Hugging Face user's repository; the platform's own
    pages keep the table's rating."""
    from authorag.trust import trust_fields

    urls = ["https://www.academia.edu/12345/Vaccines_cause_autism", "https://www.academia.edu/about",
            "https://someproject.readthedocs.org/en/latest/", "https://huggingface.co/someone/model"]
    details = load_scorer(ScorerSettings()).score(candidates_from(urls))
    assert [d.tier for d in details] == ["hosted", "table", "hosted", "hosted"]
    assert [trust_fields(d)["trust"] for d in details[::2]] == [0.35, 0.35]
    assert trust_fields(details[1])["trust_reason"] == "credible"


def test_tiers_can_be_switched_off() -> None:
    plain = load_scorer(ScorerSettings(hosted=False, reserved=False, page_evidence=False))
    d = plain.score(candidates_from(URLS[:3]))
    assert [x.tier for x in d] == ["table", "table", "table"]  # the old, wrong answers
    assert d[1].matched == "wordpress.com" and plain.name == "table"


def test_settings_precedence_file_env_flags(tmp_path: Path) -> None:
    cfg = tmp_path / "authorag.toml"
    cfg.write_text('[scorer]\nhosted_authority = 0.2\nexclude_sources = ["moz"]\nlearned = true\n', encoding="utf-8")
    env = {"AUTHORAG_CONFIG": str(cfg), "AUTHORAG_HOSTED_AUTHORITY": "0.1"}
    s = ScorerSettings.from_env(env)
    assert (s.hosted_authority, s.exclude_sources, s.learned) == (0.1, ("moz",), True)
    s2 = settings_from_args(_parse(["--hosted-authority", "0.25", "--no-learned", "--exclude", "majestic"]), env)
    assert (s2.hosted_authority, s2.exclude_sources, s2.learned) == (0.25, ("majestic",), False)
    assert ScorerSettings.from_env(s2.to_env()) == s2


@pytest.mark.parametrize("env,match", [
    ({"AUTHORAG_HOSTED_AUTHORITY": "2"}, r"hosted_authority must be in \[0, 1\], got 2.0"),
    ({"AUTHORAG_HOSTED": "perhaps"}, "AUTHORAG_HOSTED must be true or false, got 'perhaps'"),
    ({"AUTHORAG_SUBDOMAINS": "drop"}, "AUTHORAG_SUBDOMAINS must be one of 'inherit', 'discount', got 'drop'"),
    ({"AUTHORAG_JUDGE": "gpt"}, "AUTHORAG_JUDGE must be one of 'none', 'local', 'openai', got 'gpt'"),
    ({"AUTHORAG_CONFIG": "/nonexistent/authorag.toml"}, "config file /nonexistent/authorag.toml: cannot read it"),
])
def test_settings_errors(env: dict[str, str], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        ScorerSettings.from_env(env)


def test_config_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("hosted = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        ScorerSettings.from_env({"AUTHORAG_CONFIG": str(bad)})
    bad.write_text("hostd = false\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown scorer setting\(s\) \['hostd'\]"):
        ScorerSettings.from_env({"AUTHORAG_CONFIG": str(bad)})


def test_composition_names() -> None:
    assert composition_name(ScorerSettings(exclude_sources=("majestic",), learned=True)) == \
        "reserved>hosted>table-majestic>learned"
    assert composition_name(ScorerSettings(hosted=False, judge="local")) == "reserved>table>judge.point:local"


def test_subdomain_discount() -> None:
    inherit = load_scorer(ScorerSettings()).score(candidates_from(["https://unlisted-sub.nih.gov/x"]))[0]
    disc = load_scorer(ScorerSettings(subdomains="discount")).score(candidates_from(["https://unlisted-sub.nih.gov/x",
                                                                                     "https://www.nih.gov/"]))
    assert inherit.authority is not None and disc[0].authority is not None
    assert disc[0].authority == pytest.approx(0.3 + 0.5 * (inherit.authority - 0.3))
    assert disc[0].confidence == pytest.approx(inherit.confidence * 0.5)
    assert disc[1].authority == inherit.authority  # www. is the domain itself, not a sub-domain


def test_source_type_adjust_scales_shop_and_forum_pages() -> None:
    urls = ["https://www.microsoft.com/en-us/store/b/surface", "https://www.microsoft.com/en-us/research",
            "https://www.nih.gov/health-information/questions/12", "https://zq-unknown-site-2931.biz/product/x",
            "https://johndoe.wordpress.com/shop/x"]
    plain = load_scorer(ScorerSettings()).score(candidates_from(urls))
    scorer = load_scorer(ScorerSettings(source_type_adjust=True))
    adjusted = scorer.score(candidates_from(urls))
    assert scorer.name == "reserved>hosted>table+pagetype"
    shop, research, forum, unknown, hosted = adjusted
    assert plain[0].authority is not None and plain[2].authority is not None
    assert shop.authority == pytest.approx(0.3 + 0.5 * (plain[0].authority - 0.3))
    assert shop.note == (f"commercial page (shop path (/store/)) on microsoft.com: the domain's "
                         f"{plain[0].authority:.3f} scaled towards 0.3: {shop.authority:.3f}")
    assert forum.authority == pytest.approx(0.3 + 0.5 * (plain[2].authority - 0.3))
    assert forum.note is not None and forum.note.startswith("forum page (forum path (/questions/)) on nih.gov")
    # Pages without a shop/forum cue, unknown domains and hosted pages are left as they were.
    assert (research, unknown, hosted) == (plain[1], plain[3], plain[4])
    assert ScorerSettings.from_env({"AUTHORAG_SOURCE_TYPE_ADJUST": "true"}).source_type_adjust is True
    assert settings_from_args(_parse(["--source-type-adjust"]), environ={}).source_type_adjust is True


# --- every surface answers the same ---------------------------------------------------------------

def _cli(capsys: pytest.CaptureFixture[str]) -> list[float | None]:
    from authorag.cli import main

    assert main(["score", "--json", *URLS]) == 0
    return [r["authority"] for r in json.loads(capsys.readouterr().out)]


def _service() -> list[float | None]:
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import AuthorityRequest, RerankRequest
    from authorag.server.service import RerankService

    svc = RerankService(ServerConfig.from_env({}, relevance="rank"))
    by_url = [r["authority"] for r in svc.authority(AuthorityRequest(urls=URLS))["results"]]
    body = svc.rerank(RerankRequest(query="q", documents=[f"url: {u}\ntext: x" for u in URLS]), "v2")
    by_rerank = {r["index"]: r["authority"]["authority"] for r in body["results"]}
    assert [by_rerank[i] for i in range(len(URLS))] == by_url
    return by_url


def _langchain() -> list[float | None]:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(page_content="x", metadata={"source": u, "i": i}) for i, u in enumerate(URLS)]
    out = AuthorityCompressor(top_n=len(URLS)).compress_documents(docs, "q")
    got: dict[int, Any] = {d.metadata["i"]: d.metadata["authority"]["authority"] for d in out}
    return [got[i] for i in range(len(URLS))]


def _haystack() -> list[float | None]:
    pytest.importorskip("haystack")
    from haystack import Document

    from authorag.integrations.haystack import AuthorityRanker

    ranker = AuthorityRanker(top_k=len(URLS))
    ranker.warm_up()
    out = ranker.run(query="q", documents=[Document(content="x", meta={"url": u, "i": i}) for i, u in enumerate(URLS)])
    got: dict[int, Any] = {d.meta["i"]: d.meta["authority"]["authority"] for d in out["documents"]}
    return [got[i] for i in range(len(URLS))]


def _audit_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> list[float | None]:
    from authorag.cli import main

    answer = {"question": "q", "answer": "a [1].", "sources": [{"id": str(i + 1), "url": u} for i, u in enumerate(URLS)]}
    (tmp_path / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
    assert main(["audit", str(tmp_path / "answer.json"), "--json"]) == 0
    return [s["authority"] for s in json.loads(capsys.readouterr().out)["sources"]]


def _llamaindex() -> list[float | None]:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import NodeWithScore, TextNode

    from authorag.integrations.llamaindex import AuthorityPostprocessor

    nodes = [NodeWithScore(node=TextNode(text="x", metadata={"url": u, "i": i})) for i, u in enumerate(URLS)]
    out = AuthorityPostprocessor(top_n=len(URLS)).postprocess_nodes(nodes, query_str="q")
    got: dict[int, Any] = {n.node.metadata["i"]: n.node.metadata["authority"]["authority"] for n in out}
    return [got[i] for i in range(len(URLS))]


def _bench() -> list[float | None]:
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tasks import BenchItem

    method = build_method("default", MethodContext(task_family="domainauth", label_source=None))
    items = [BenchItem(str(i), u, 0) for i, u in enumerate(URLS)]
    return [None if d.authority is None else d.authority for d in method.details(items)]  # type: ignore[attr-defined]


def test_every_surface_gives_the_same_authority(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("AUTHORAG_CONFIG", "AUTHORAG_LEARNED", "AUTHORAG_JUDGE", "AUTHORAG_HOSTED"):
        monkeypatch.delenv(var, raising=False)
    expected = [d.authority for d in load_scorer(ScorerSettings()).score(candidates_from(URLS))]
    assert expected[1] == 0.4 and expected[2] is None and expected[0] is not None and expected[0] > 0.9
    surfaces = {"cli": _cli(capsys), "server": _service(), "langchain": _langchain(), "haystack": _haystack(),
                "llamaindex": _llamaindex(), "bench": _bench(), "audit cli": _audit_cli(capsys, tmp_path)}
    assert surfaces == {name: expected for name in surfaces}


def test_scorer_options_without_judge_flags_leave_the_judge_to_the_settings() -> None:
    """``audit`` has its own ``--judge`` (the support LLM): the scorer's judge then comes from the
    environment or the config file, never from that flag."""
    p = argparse.ArgumentParser()
    p.add_argument("--judge", choices=["none", "local", "openai"], default="none")
    add_scorer_options(p, judge_flags=False)
    args = p.parse_args(["--judge", "local", "--exclude", "majestic"])
    assert settings_from_args(args, environ={}, judge_flags=False) == ScorerSettings(exclude_sources=("majestic",))
    from_env = settings_from_args(args, environ={"AUTHORAG_JUDGE": "local"}, judge_flags=False)
    assert from_env.judge == "local"
    with pytest.raises(SystemExit):
        p.parse_args(["--judge-model", "x"])
