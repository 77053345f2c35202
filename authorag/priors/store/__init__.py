"""Prior stores: one memory-mapped file per source, for tens of millions of domains.

:mod:`~authorag.priors.store.mapped` is the file (layout, ``PriorStore``, ``write_store``);
:mod:`~authorag.priors.store.check` checks a file's header and arrays before use;
:mod:`~authorag.priors.store.sort` writes a store from more rows than fit in memory;
:mod:`~authorag.priors.store.importers` (the rank-list formats) and
:mod:`~authorag.priors.store.import_job` are ``authorag priors import``;
:mod:`~authorag.priors.store.fetch` is ``authorag priors fetch``;
:mod:`~authorag.priors.store.from_pagerank` writes the store of a PageRank run.
``ExtraSource.from_store`` (:mod:`authorag.priors.table`) opens a store as a prior source.
"""
