"""Generalisation tracks (``authorag bench tracks``): judge every default across collections, topics and languages.

:mod:`~authorag.benchmarks.generalisation.shared_sets` reads the shared evaluation sets (C3,
Fake.br, CoAID, Décodex, Wikipedia WikiProject lists) from a data folder;
:mod:`~authorag.benchmarks.generalisation.stats` computes AUC, Spearman and shares with paired
bootstrap CIs and the verdict; :mod:`~authorag.benchmarks.generalisation.run` runs every track
for the default, ``page-evidence-off`` and ``relevance-only``;
:mod:`~authorag.benchmarks.generalisation.report` writes the table.
"""
