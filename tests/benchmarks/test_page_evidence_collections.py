"""The held-out page-evidence evaluation: pages grouped by registrable domain, and which text cues were present."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from authorag.benchmarks.page_evidence.collections import cue_counts, held_out_pages, length_check
from authorag.evidence.text import read_texts

ALARM = ("URGENTE: o governo vai confiscar a poupança de todos na segunda-feira e os jornais escondem tudo. "
         "Compartilhe com todos os seus contatos e repasse para os grupos antes que apaguem esta mensagem!")
CLICKBAIT = ("Chocante! Você não vai acreditar no que aconteceu com a atriz. O caso virou escândalo e o vídeo "
             "viralizou em poucas horas; o final é bizarro e ninguém esperava por isso.")
NEWS = ("A prefeitura anunciou nesta terça-feira que as obras da avenida começam no dia 15. Segundo a secretaria, "
        "o trânsito será desviado durante a noite, informou a empresa responsável pelo transporte.")


def test_cue_counts_count_pages_per_label_and_rank_the_words() -> None:
    out = cue_counts(read_texts([ALARM, CLICKBAIT, NEWS, ALARM]), [0, 0, 1, 0], top=3)
    assert out["not_credible"] == {
        "pages": 3, "cues": {"alarm": 2, "clickbait": 1},
        "words": {"alarm:URGENTE:": 2, "alarm:compartilhe": 2, "alarm:repasse": 2}}
    assert out["credible"] == {"pages": 1, "cues": {"attribution": 1},
                               "words": {"attribution:segundo": 1, "attribution:informou": 1, "attribution:anunciou": 1}}


def test_cue_counts_without_pages_of_a_label() -> None:
    assert cue_counts(read_texts([NEWS]), [1])["not_credible"] == {"pages": 0, "cues": {}, "words": {}}


def test_held_out_pages_group_fake_br_by_registrable_domain(tmp_path: Path) -> None:
    (tmp_path / "fakebr_corpus_pt").mkdir()
    rows = [("https://www.estadao.com.br/a", "true"), ("https://politica.estadao.com.br/b", "true"),
            ("https://www.uol.com.br/c", "true"), ("http://blog.zq-noticias.net/d", "fake")]
    with (tmp_path / "fakebr_corpus_pt" / "fakebr.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["url", "label", "text"])
        w.writerows([(url, label, f"texto {i}") for i, (url, label) in enumerate(rows)])
    pages = held_out_pages(tmp_path, 10)
    assert list(pages) == ["fakebr"]
    assert sorted(pages["fakebr"]) == [("texto 0", 1, "estadao.com.br"), ("texto 1", 1, "estadao.com.br"),
                                       ("texto 2", 1, "uol.com.br"), ("texto 3", 0, "zq-noticias.net")]


def test_length_check_gives_the_length_baseline_and_the_auc_within_bands() -> None:
    trust = [0.30, 0.36, 0.30, 0.36, 0.30, 0.36, 0.36]
    words = [100, 150, 400, 500, 600, 900, 1200]
    labels = [0, 0, 0, 1, 1, 1, 1]
    out = length_check(trust, words, labels)
    assert out["auc_words_alone"] == pytest.approx(1.0)
    assert out["auc_by_words_read"] == {"0-300": {"pages": 2, "credible": 0, "auc": None},
                                        "300-800": {"pages": 3, "credible": 2, "auc": pytest.approx(0.75)},
                                        "800+": {"pages": 2, "credible": 2, "auc": None}}
