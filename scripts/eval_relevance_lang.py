"""Multilingual dev cases for lexical relevance and the window (en, de, es, fr), BM25 and dense.

A handful of hand-written cases, written for this check (not a track, and not the held-out sets):
per language a no-harm pair (an on-topic page from a middling source against a very trusted page
that shares a word of the question but answers another one: the on-topic page must come first)
and a trust pair (two pages on the question, one from a trusted source, one from a user blog:
the trusted one must come first), plus the ImportError case of an error message that every Q&A
page quotes (docs.python.org must stay on topic, fused score at least 0.5, and above the spam
page; the Q&A pages may stay above it). Each case runs in both
input orders through ``adapters.build_reranker`` with the default policy. Runs with whatever
``authorag`` is on the path, so benchmarks/results/relevance_lang/reproduce.sh runs it before and
after the change.

    python scripts/eval_relevance_lang.py --out cases.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from authorag.adapters import build_reranker, candidates

# (language, kind, question, [(url, text)], expected first url)
Case = tuple[str, str, str, list[tuple[str, str]], str]

_IMPORT_Q = "ImportError: attempted relative import with no known parent package"
_IMPORT_PAGES = [
    ("https://docs.python.org/3/reference/import.html",
     "The import system. Python code in one module gains access to the code in another module by the process of "
     "importing it. Package relative imports: relative imports use leading dots. A single leading dot indicates a "
     "relative import, starting with the current package. Two or more leading dots indicate a relative import to "
     "the parent(s) of the current package, one level per dot after the first. Relative imports are resolved "
     "against the module's __package__ attribute. A module run as a script is named __main__ and has no parent "
     "package, so a relative import in it cannot be resolved; run it as part of its package with python -m "
     "package.module, or use absolute imports in modules meant to be run as the main program."),
    ("https://stackoverflow.com/questions/16981921/relative-imports-in-python-3",
     "Relative imports in Python 3. I want to import a function from another file in the same directory. When I "
     "run python mymodule.py I get ImportError: attempted relative import with no known parent package. Sometimes "
     "it works with from .mymodule import myfunction, but then I get the error ImportError: attempted relative "
     "import with no known parent package again. Answer: the error ImportError: attempted relative import with no "
     "known parent package means the module was run as a script, so it has no parent package. Run it with python "
     "-m mypackage.main from the directory above the package, and the relative import works."),
    ("https://realpython.com/absolute-vs-relative-python-imports/",
     "Absolute vs relative imports in Python. If you have worked on a Python project with more than one file, you "
     "have probably had to use an import statement. A common error is ImportError: attempted relative import with "
     "no known parent package, which you see when you run a file that uses a relative import directly. Python then "
     "does not know the package the file belongs to. Relative imports are resolved from the current package, so "
     "either run the module with the -m switch or switch to absolute imports, which name the full path from the "
     "project root."),
    ("https://discuss.python.org/t/attempted-relative-import-with-no-known-parent-package/12345",
     "Attempted relative import with no known parent package. Hi all, my project has a folder app with "
     "__init__.py, main.py and utils.py. In main.py I wrote from .utils import helper and running python "
     "app/main.py prints ImportError: attempted relative import with no known parent package. Reply: you are "
     "running main.py as a top-level script, so its __package__ is empty. Run python -m app.main from the project "
     "folder instead."),
    ("https://pc-error-fixer-pro.example.net/importerror",
     "Fix ImportError now! Our PC Error Fixer Pro repairs every error on your computer in one click: attempted "
     "relative import errors, package errors, DLL errors, registry errors and slow start-up. Download the free "
     "scan today, no known parent needed. Thousands of happy customers fixed their error with our tool."),
]

CASES: list[Case] = [
    ("en", "import-error", _IMPORT_Q, _IMPORT_PAGES, "https://docs.python.org/3/reference/import.html"),
    ("en", "no-harm", "how long should I boil an egg for a runny yolk",
     [("https://www.seriouseats.com/perfect-soft-boiled-eggs",
       "Soft-boiled eggs with a runny yolk: lower cold eggs into boiling water and cook them for six minutes, then "
       "chill them in ice water for a minute. Six and a half minutes gives a jammy yolk; eight minutes sets it."),
      ("https://www.nasa.gov/egg-drop",
       "The egg drop challenge: students design a container that keeps a raw egg from breaking when it falls from "
       "a height. How long the egg survives depends on the padding and the parachute, not on the yolk.")],
     "https://www.seriouseats.com/perfect-soft-boiled-eggs"),
    ("en", "trust", "can you take ibuprofen during pregnancy",
     [("https://www.nhs.uk/pregnancy/ibuprofen",
       "Ibuprofen is not usually recommended during pregnancy, especially from 30 weeks, because it may affect the "
       "baby's heart and the amount of amniotic fluid. Paracetamol is the first choice for pain; ask a doctor "
       "or pharmacist before taking ibuprofen while pregnant."),
      ("https://mamahacks.blogspot.com/ibuprofen-pregnancy",
       "I took ibuprofen all through my pregnancy and my baby is fine, so don't believe the scare stories! "
       "Ibuprofen during pregnancy is totally safe in my experience, doctors just like to worry.")],
     "https://www.nhs.uk/pregnancy/ibuprofen"),
    ("de", "no-harm", "Wie lange ist die Kündigungsfrist für einen Mietvertrag als Mieter?",
     [("https://www.mietrecht-ratgeber.de/kuendigungsfrist",
       "Als Mieter können Sie einen unbefristeten Mietvertrag mit einer Frist von drei Monaten kündigen. Die "
       "Kündigung muss schriftlich erfolgen und spätestens am dritten Werktag eines Monats beim Vermieter sein."),
      ("https://www.bundesbank.de/mietpreise",
       "Die Bundesbank beobachtet die Entwicklung der Mieten und Wohnimmobilienpreise in Deutschland. Der Bericht "
       "vergleicht Neuvertragsmieten in den Städten und erklärt, wie Zinsen die Nachfrage nach Wohnraum verändern.")],
     "https://www.mietrecht-ratgeber.de/kuendigungsfrist"),
    ("de", "trust", "Welche Impfungen werden in der Schwangerschaft empfohlen?",
     [("https://www.rki.de/impfungen-schwangerschaft",
       "In der Schwangerschaft empfiehlt die Ständige Impfkommission die Impfung gegen Keuchhusten zu Beginn des "
       "dritten Trimenons und ab dem zweiten Trimenon die Grippeimpfung. Lebendimpfstoffe sind in der "
       "Schwangerschaft nicht erlaubt."),
      ("https://gesundheitstipps.blogspot.com/impfen-schwanger",
       "Impfungen in der Schwangerschaft? Ich rate jeder Schwangeren davon ab. Die Impfstoffe schaden dem Baby, "
       "das verschweigen die Ärzte. Natürliche Abwehrkräfte sind besser als jede Impfung.")],
     "https://www.rki.de/impfungen-schwangerschaft"),
    ("es", "no-harm", "¿Cuánto tiempo hay que hervir un huevo para que la yema quede líquida?",
     [("https://www.directoalpaladar.com/huevos-pasados-por-agua",
       "Para un huevo con la yema líquida, pon los huevos en agua hirviendo y cuécelos seis minutos; después "
       "enfríalos en agua con hielo. Con ocho minutos la yema queda cuajada."),
      ("https://www.aemps.gob.es/alergia-huevo-vacunas",
       "Algunas vacunas se producen en huevos de gallina. Las personas con alergia al huevo pueden recibir la "
       "vacuna de la gripe con las precauciones habituales; consulte a su médico si tuvo una reacción grave.")],
     "https://www.directoalpaladar.com/huevos-pasados-por-agua"),
    ("es", "trust", "¿Es seguro tomar ibuprofeno durante el embarazo?",
     [("https://www.aemps.gob.es/ibuprofeno-embarazo",
       "El ibuprofeno no debe utilizarse a partir de la semana 20 de embarazo salvo indicación médica, porque "
       "puede dañar los riñones del feto y reducir el líquido amniótico. Consulte a su médico antes de tomarlo."),
      ("https://remedios-caseros.wordpress.com/ibuprofeno-embarazo",
       "Yo tomé ibuprofeno todo el embarazo y mi bebé nació perfecto. El ibuprofeno durante el embarazo es "
       "seguro, los médicos exageran para vender otros medicamentos.")],
     "https://www.aemps.gob.es/ibuprofeno-embarazo"),
    ("fr", "no-harm", "Quel est le délai de préavis pour quitter un appartement loué vide ?",
     [("https://www.pap.fr/locataire/preavis",
       "Le locataire d'un logement vide doit respecter un préavis de trois mois, réduit à un mois en zone tendue "
       "ou en cas de mutation professionnelle. Le congé est envoyé par lettre recommandée au propriétaire."),
      ("https://www.banque-france.fr/credit-immobilier",
       "La Banque de France publie chaque mois les taux des crédits à l'habitat. Les ménages qui achètent un "
       "appartement empruntent en moyenne sur vingt-trois ans ; le délai d'obtention d'un prêt s'allonge.")],
     "https://www.pap.fr/locataire/preavis"),
    ("fr", "trust", "Peut-on prendre de l'ibuprofène pendant la grossesse ?",
     [("https://www.ameli.fr/ibuprofene-grossesse",
       "Les anti-inflammatoires comme l'ibuprofène sont contre-indiqués à partir du début du sixième mois de "
       "grossesse : ils peuvent provoquer une atteinte grave du rein et du cœur du fœtus. Demandez conseil à "
       "votre médecin ou à votre pharmacien."),
      ("https://astuces-sante.over-blog.com/ibuprofene-grossesse",
       "J'ai pris de l'ibuprofène pendant toute ma grossesse et tout va bien ! L'ibuprofène pendant la grossesse "
       "ne pose aucun problème, les médecins en font trop.")],
     "https://www.ameli.fr/ibuprofene-grossesse"),
]


def run_case(case: Case, relevance: str) -> list[dict[str, Any]]:
    """The case in both input orders (forward, reversed): the first URL and whether it is the expected one."""
    lang, kind, question, pages, expected = case
    reranker, mode = build_reranker(relevance=relevance)
    out: list[dict[str, Any]] = []
    for order, rows in (("forward", pages), ("reversed", pages[::-1])):
        cands, _ = candidates([(u, t, None) for u, t in rows], mode)
        ranking = reranker.rerank(question, cands)
        urls = [c.url for c in ranking.candidates]
        if kind == "import-error":  # on topic and above the spam page (the last page of the case)
            on_topic = ranking.candidates[urls.index(expected)].scores["fused"] >= 0.5
            ok = on_topic and urls.index(expected) < urls.index(pages[-1][0])
        else:
            ok = urls[0] == expected
        out.append({"language": lang, "kind": kind, "relevance": relevance, "order": order,
                    "first": urls[0], "ok": ok, "ranking": urls,
                    "note": ranking.provenance.get("relevance_note")})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Multilingual dev cases for lexical relevance and the window.")
    parser.add_argument("--out", type=Path, required=True, help="JSON file to write")
    parser.add_argument("--relevance", default="bm25,dense", help="comma-separated relevances (default bm25,dense)")
    args = parser.parse_args(argv)
    rows = [r for rel in args.relevance.split(",") for case in CASES for r in run_case(case, rel)]
    summary: dict[str, float] = {}
    for key in sorted({(r["relevance"], r["language"], r["kind"]) for r in rows}):
        cell = [r["ok"] for r in rows if (r["relevance"], r["language"], r["kind"]) == key]
        summary[" ".join(key)] = sum(cell) / len(cell)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, ensure_ascii=False) + "\n")
    for key, value in summary.items():
        print(f"{key:30} {value:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
