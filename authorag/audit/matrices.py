"""The statement × source matrices: C (who cites what) and S (what supports what).

Rows are statements in answer order, columns are sources in input order (sources added from
footnotes or links come after the listed ones). S rows are None where support is unknown.

Example:
    >>> from authorag.audit.model import AuditStatement
    >>> citation_matrix([AuditStatement("a", ("2",)), AuditStatement("b", ("1", "2"))], ["1", "2", "3"])
    ((0, 1, 0), (1, 1, 0))
    >>> support_pairs(((0, 1), None, (1, 0)))
    [(0, 1), (2, 0)]
"""
from __future__ import annotations

from collections.abc import Sequence

from authorag.audit.model import AuditStatement
from authorag.errors import ConfigError

Matrix = tuple[tuple[int, ...], ...]
SupportMatrix = tuple[tuple[int, ...] | None, ...]


def citation_matrix(statements: Sequence[AuditStatement], source_ids: Sequence[str]) -> Matrix:
    """0/1 matrix: statement i cites source j.

    Raises:
        ConfigError: a statement cites an id that is not among ``source_ids``.
    """
    col = {sid: j for j, sid in enumerate(source_ids)}
    rows: list[tuple[int, ...]] = []
    for i, st in enumerate(statements):
        row = [0] * len(source_ids)
        for sid in st.citations:
            if sid not in col:
                raise ConfigError(f"statement {i} cites source id {sid!r}, which is not among {list(source_ids)}")
            row[col[sid]] = 1
        rows.append(tuple(row))
    return tuple(rows)


def support_pairs(support: Sequence[Sequence[int] | None]) -> list[tuple[int, int]]:
    """(statement, source) index pairs where the source supports the statement."""
    return [(i, j) for i, row in enumerate(support) if row is not None for j, v in enumerate(row) if v]


__all__ = ["Matrix", "SupportMatrix", "citation_matrix", "support_pairs"]
