"""A thread under a site's forum path is a user's post: the site's rating is not the page's."""
from __future__ import annotations

import pytest

from authorag.adapters import breakdowns, build_reranker, candidates
from authorag.compose import load_scorer

THREAD = "https://www.doctissimo.fr/forum/environnement/ciel-rouge-coucher-soleil-sujet_1843_1.htm"
MUSEUM = "https://www.cite-sciences.fr/fr/ressources/ciel-rouge"
PAGES = {
    THREAD: "Ciel rouge ce soir ! Salut à tous, quelqu'un sait d'où vient la couleur rouge du ciel au coucher du "
            "soleil ? Mon voisin dit que c'est la pollution des usines, moi je pense que c'est le sable du désert.",
    MUSEUM: "La couleur du ciel au coucher du soleil. Le soir, la lumière du soleil traverse une plus grande "
            "épaisseur d'atmosphère : les molécules d'air diffusent le bleu dans toutes les directions et il reste "
            "surtout le rouge et l'orange.",
}
QUERY = "pourquoi le ciel est rouge au coucher du soleil"


@pytest.mark.parametrize("order", [(THREAD, MUSEUM), (MUSEUM, THREAD)])
def test_a_forum_thread_of_a_rated_site_does_not_take_the_site_s_rating(order: tuple[str, str]) -> None:
    # On the dev half of trust-pairs-v3 this thread took doctissimo.fr's Décodex rating (trust 0.752)
    # and ranked above the science museum's page; under /forum/ it is a user's post (hosted tier).
    reranker, mode = build_reranker(scorer=load_scorer(), relevance="bm25")
    cands, source = candidates([(u, PAGES[u], None) for u in order], mode)
    ranking = reranker.rerank(QUERY, cands)
    assert [c.url for c in ranking] == [MUSEUM, THREAD]
    rows = {b["url"]: b for b in breakdowns(ranking, source)}
    assert (rows[THREAD]["tier"], rows[THREAD]["note"]) == (
        "hosted", "user content (forum) on doctissimo.fr: the platform's authority is not the page's")
    assert rows[THREAD]["trust"] == pytest.approx(0.35)
    # The museum is rated by the reference list (museum or archive, 0.8) since 2026-12-07; it had
    # recognition only (trust 0.435) when this test was written.
    assert rows[MUSEUM]["trust"] == pytest.approx(0.6951120, abs=1e-6)
    assert rows[THREAD]["relevance_norm"] >= 0.55 and rows[MUSEUM]["relevance_norm"] >= 0.55  # both on topic
