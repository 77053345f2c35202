"""The public surface, decided and pinned: every package's ``__all__`` equals the list written here.

A package exports what a user imports from it; implementation modules keep their own names.
Adding or removing a public name means changing this file (and the CHANGELOG). Packages with an
empty list offer their modules only (``authorag.server.app``, ``authorag.integrations.langchain``...).
"""
from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "authorag"

EXPORTED: dict[str, list[str]] = {
    "authorag": [
        "AuthoragError", "AuthorityDetail", "AuthorityReranker", "AuthorityScorer", "Candidate", "ConfigError",
        "HybridAuthority", "InvalidURLError", "JudgeError", "JudgeResponseError", "LearnedPrior", "ListJudge",
        "MissingDependencyError", "PairJudge", "ParsedHost", "PointJudge", "PriorTable", "PriorUnavailable",
        "Ranking", "RelevanceScorer", "RerankPolicy", "Reranker", "ScorerSettings", "SourceValue",
        "TieredAuthority", "__version__", "build_hybrid", "candidates_from", "load_backend", "load_judge",
        "load_learned_prior", "load_prior", "load_relevance", "load_scorer", "parse_host", "registrable_domain",
    ],
    "authorag.audit": ["AuditInput", "AuditJudge", "AuditLimits", "AuditReport", "AuditSource", "AuditStatement",
                       "audit", "parse_input"],
    "authorag.audit.prompts": [],
    "authorag.benchmarks": [],
    "authorag.benchmarks.generalisation": [],
    "authorag.benchmarks.judge_study": [],
    "authorag.benchmarks.page_evidence": [],
    "authorag.benchmarks.paper": [],
    "authorag.benchmarks.rag": [],
    "authorag.benchmarks.tracks": [],
    "authorag.cli": ["COMMAND_MODULES", "build_parser", "entry", "main"],
    "authorag.data": [],
    "authorag.evidence": ["TRUST_HIGH", "TRUST_LOW", "LayerEvidence", "PageEstimate", "PageEvidence", "PageModel",
                          "load_page_model", "page_trust"],
    "authorag.integrations": [],
    "authorag.judges": ["JUDGES", "ItemScore", "JudgeCost", "JudgeItem", "JudgeRun", "ListJudge", "PairJudge",
                        "PointJudge", "RelevanceJudge", "UtilityJudge", "load_judge"],
    "authorag.judges.backends": ["BACKENDS", "DEFAULT_MODEL", "FEATURES", "MODELS", "BackendInfo", "BackendName",
                                 "ChatRequest", "Completion", "Feature", "LLMBackend", "LocalBackend", "OpenAIBackend",
                                 "TokenLogprob", "load_backend", "model_path"],
    "authorag.judges.prompts": ["PROMPT_VERSION", "TEMPLATES", "TEXT_PROMPT_VERSION", "TEXT_TEMPLATES", "TEXT_VERSIONS",
                                "format_item", "format_items", "load_text", "prompt_id", "render", "version_for"],
    "authorag.priors": ["DEFAULT_RULES", "SOURCES", "AuthorityScorer", "ExtraSource", "LearnedPrior", "PageRankPrior",
                        "PriorTable", "SuffixRule", "load_learned_prior", "load_pagerank_prior", "load_prior",
                        "load_source"],
    "authorag.priors.learned": ["LearnedPrior", "load_learned_prior"],
    "authorag.priors.store": [],
    "authorag.relevance": ["ENGLISH_STOPWORDS", "RELEVANCE_REGISTRY", "BM25Relevance", "DenseEncoder", "DenseRelevance",
                           "RelevanceEntry", "RelevanceScorer", "UpstreamSimilarity", "load_relevance", "tokenize"],
    "authorag.rerankers": ["AuthorityReranker", "Reranker"],
    "authorag.retrieval": ["BM25Retriever", "DenseRetriever", "FaissIndex", "HybridRetriever", "IndexKind",
                           "IndexOptions", "RelevanceFusion", "Retriever"],
    "authorag.server": [],
    "authorag.tiers": [],
    "authorag.websearch": [],
    "authorag.settings": ["CONFIG_ENV", "ENV_PREFIX", "MAX_TOML_BYTES", "MAX_TOML_NESTING", "NO_FLAG", "TABLES", "Flag",
                          "add_flags", "build", "cache_dir", "check_fields", "check_setting", "config_table",
                          "config_tables", "describe", "env_name", "env_text", "env_values", "export_env",
                          "field_default", "field_docs", "field_kinds", "flag", "flag_values", "openai_api_key",
                          "process_environ", "read_settings", "read_toml", "read_variant", "results_dir",
                          "setting_kinds"],
    "authorag.spark": [],
    "authorag.testing": ["FAULT_MODES", "FakeAnswer", "FakeBackend", "FakeScript", "FaultMode", "FaultServer",
                         "fake_completion", "free_port", "hash_opinion", "judge_script", "serve_faulty_openai",
                         "serve_openai_compatible", "wait_until_ready"],
    "authorag.suitability": ["SOURCE_TYPES", "TOPICS", "MatrixSuitability", "SourceType", "SourceTypeClassifier",
                             "SourceTypeResult", "SuitabilityMatrix", "Topic", "TopicClassifier", "TopicResult",
                             "load_matrix", "load_suitability"],
}

FRONTS: dict[str, str] = {}
"""Non-package modules allowed to re-export another public module's names (none)."""


def _module(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PACKAGES = sorted(_module(p) for p in PKG.rglob("__init__.py"))


def test_every_package_has_a_decided_surface() -> None:
    assert sorted(EXPORTED) == PACKAGES


@pytest.mark.parametrize("name", PACKAGES)
def test_exported_members(name: str) -> None:
    mod = importlib.import_module(name)
    assert sorted(getattr(mod, "__all__", [])) == sorted(EXPORTED[name])
    own = {n for n, v in vars(mod).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)
           and getattr(v, "__module__", None) == name}  # classes and functions the package defines itself
    assert own <= set(EXPORTED[name]), f"{name} defines public names outside __all__: {sorted(own - set(EXPORTED[name]))}"
    for member in EXPORTED[name]:
        assert hasattr(mod, member), member


def _defined_and_imported(tree: ast.Module) -> tuple[set[str], dict[str, str], list[str] | None]:
    """Top-level names a module defines, names it imports (-> their module) and its ``__all__``."""
    defined: set[str] = set()
    imported: dict[str, str] = {}
    exported: list[str] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.update({a.asname or a.name: node.module for a in node.names})
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            defined |= names
            if "__all__" in names and node.value is not None:
                exported = list(ast.literal_eval(node.value))
        elif isinstance(node, (ast.If, ast.Try)):
            defined |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            defined |= {t.id for n in ast.walk(node) if isinstance(n, ast.Assign)
                        for t in n.targets if isinstance(t, ast.Name)}
    return defined, imported, exported


MODULES = sorted(p for p in PKG.rglob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_all_holds_the_module_own_names(path: Path) -> None:
    defined, imported, exported = _defined_and_imported(ast.parse(path.read_text(encoding="utf-8")))
    name = _module(path)
    foreign = []
    for member in exported or []:
        if member in defined:
            continue
        origin = imported.get(member, "")
        if any(part.startswith("_") for part in origin.split(".")) or FRONTS.get(name) == origin:
            continue  # a public module fronting its private implementation
        foreign.append(member)
    assert not foreign, f"{name}.__all__ lists names defined elsewhere: {foreign}; import them from where they live"
