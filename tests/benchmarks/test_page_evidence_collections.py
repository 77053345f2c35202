"""The held-out page-evidence evaluation: which text cues were present on credible and other pages."""
from __future__ import annotations

from authorag.benchmarks.page_evidence.collections import cue_counts

ALARM = ("URGENTE: o governo vai confiscar a poupança de todos na segunda-feira e os jornais escondem tudo. "
         "Compartilhe com todos os seus contatos e repasse para os grupos antes que apaguem esta mensagem!")
CLICKBAIT = ("Chocante! Você não vai acreditar no que aconteceu com a atriz. O caso virou escândalo e o vídeo "
             "viralizou em poucas horas; o final é bizarro e ninguém esperava por isso.")
NEWS = ("A prefeitura anunciou nesta terça-feira que as obras da avenida começam no dia 15. Segundo a secretaria, "
        "o trânsito será desviado durante a noite, informou a empresa responsável pelo transporte.")


def test_cue_counts_count_pages_per_label_and_rank_the_words() -> None:
    out = cue_counts([ALARM, CLICKBAIT, NEWS, ALARM], [0, 0, 1, 0], top=3)
    assert out["not_credible"] == {
        "pages": 3, "cues": {"alarm": 2, "clickbait": 1},
        "words": {"alarm:URGENTE:": 2, "alarm:compartilhe": 2, "alarm:repasse": 2}}
    assert out["credible"] == {"pages": 1, "cues": {"attribution": 1},
                               "words": {"attribution:segundo": 1, "attribution:informou": 1, "attribution:anunciou": 1}}


def test_cue_counts_without_pages_of_a_label() -> None:
    assert cue_counts([NEWS], [1])["not_credible"] == {"pages": 0, "cues": {}, "words": {}}
