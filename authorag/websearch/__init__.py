"""Web search as agents and search APIs see it: one authorag policy on their results and filters.

* :mod:`authorag.websearch.results`: recognise a web-search tool's result shapes (a list of
  ``{url|link, title, content|snippet}`` objects, an object holding such a list under ``results``
  and the like, or a JSON string of either), rerank or filter them with the adapter core
  (:mod:`authorag.adapters`) and write them back with a per-result breakdown and a note of what
  was dropped and why. The agent middleware and hooks in ``authorag.integrations`` and
  ``authorag check`` use it.
* :mod:`authorag.websearch.export`: one policy compiled into the search providers' own domain
  filters and engines' rule files (``authorag export``), with :mod:`authorag.websearch.formats`
  parsing each format back by its documented rules.
"""
from __future__ import annotations
