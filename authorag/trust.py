"""Trust: one value per candidate from recognition and credibility, by a documented rule.

Recognition (links, popularity: :attr:`AuthorityDetail.authority`) says how well known a source
is; credibility (reporting reliability: :attr:`AuthorityDetail.credibility`) says whether what
it publishes holds up. A famous misinformation site is highly recognised and not credible, so
the two are kept apart and combined here into the one value the reranker orders by.

The rule (:class:`TrustRule`, all on 0–1, ``u`` = the unknown level
:data:`~authorag.types.UNKNOWN_LEVEL`):

=================================  ===========================================================
evidence                           trust
=================================  ===========================================================
credibility ``c`` below ``low``    ``u · c / low · low_ceiling``: below every unknown source,
                                   however famous (recognition is ignored)
credibility ``c`` at or above      ``u + (1 − u) · s · (credible_share + (1 − credible_share) · ρ)``
``low``                            with ``s = (c − low) / (1 − low)`` and ``ρ`` the recognition
                                   lift ``max(0, r − u) / (1 − u)`` (0 when unknown)
page evidence only                 the page-evidence tier's value (:attr:`AuthorityDetail.page_trust`,
                                   :mod:`authorag.evidence`), already on this scale
recognition only                   ``u + recognition_share · max(0, r − u)``: a recognised source
                                   is lifted part of the way, never treated as credible; little
                                   recognition is no evidence against it (it stays at ``u``)
nothing known                      ``u`` (the unknown level)
=================================  ===========================================================

Example:
    >>> from authorag.types import AuthorityDetail
    >>> rule = TrustRule()
    >>> rule.value(AuthorityDetail(0.95, 0.9, "table", credibility=0.0))  # famous, deprecated
    0.0
    >>> rule.value(AuthorityDetail(None, 0.0, "unknown"))
    0.3
    >>> round(rule.value(AuthorityDetail(0.95, 0.9, "table")), 3)  # recognised, no credibility known
    0.625
"""
from __future__ import annotations

from dataclasses import dataclass, field

from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, TrustValue
from authorag.validation import check_unit

TRUST_REASONS = ("low credibility", "mixed credibility", "credible", "page evidence", "recognition only", "unknown")
"""The reasons a trust value can carry (:attr:`~authorag.types.TrustValue.reason`), one per branch of the rule."""

CREDIBLE_FROM = 0.6
"""Credibility at or above this is reported as ``credible``; between the rule's ``low`` and this,
``mixed credibility`` (the value follows the same formula; only the reason differs)."""


@dataclass(frozen=True)
class TrustRule:
    """The documented trust rule (see the module docstring); validated on construction.

    Attributes:
        unknown_level: the level of a source nothing is known about.
        low: credibility below this is known low credibility (it dominates recognition).
        low_ceiling: the share of ``unknown_level`` that known low credibility can reach at most
            (below 1, so a known-bad source always ends below every unknown one).
        credible_share: how much of the credible range credibility alone earns; the rest comes
            from recognition.
        recognition_share: the share of its distance from ``unknown_level`` a source with
            recognition but no credibility evidence keeps.

    Raises:
        ConfigError: a value outside [0, 1], or ``low_ceiling`` not below 1.
    """

    unknown_level: float = UNKNOWN_LEVEL
    low: float = 0.35
    low_ceiling: float = 0.9
    credible_share: float = 0.7
    recognition_share: float = 0.5
    _memo: dict[int, tuple[AuthorityDetail, TrustValue]] = field(default_factory=dict, repr=False,
                                                                  compare=False, hash=False)

    def __post_init__(self) -> None:
        for name in ("unknown_level", "low", "low_ceiling", "credible_share", "recognition_share"):
            check_unit(name, getattr(self, name))
        if self.low_ceiling >= 1.0 or self.low >= 1.0:
            from authorag.errors import ConfigError

            raise ConfigError(f"low and low_ceiling must be below 1 (a known-bad source must end below "
                              f"the unknown level), got low={self.low}, low_ceiling={self.low_ceiling}")

    def of(self, detail: AuthorityDetail) -> TrustValue:
        """The trust value of ``detail`` and its reason (remembered per detail object)."""
        hit = self._memo.get(id(detail))
        if hit is not None and hit[0] is detail:
            return hit[1]
        out = self._compute(detail)
        if len(self._memo) >= 8192:
            self._memo.clear()
        self._memo[id(detail)] = (detail, out)  # the detail is kept alive: its id is not reused
        return out

    def value(self, detail: AuthorityDetail) -> float:
        """:meth:`of` without the reason."""
        return self.of(detail).value

    def low_credibility(self, value: TrustValue) -> bool:
        """Whether a trust ``value`` records a present low-credibility finding: the low-credibility
        branch (a rating below ``low``), or page evidence that found a low-credibility cue (its
        value below ``unknown_level · low_ceiling``). Little recognition alone is no finding. The
        relevance window never measures other candidates against such a page
        (:func:`authorag.rerankers.calibration.calibrate`).

        Example:
            >>> rule = TrustRule()
            >>> rule.low_credibility(rule.of(AuthorityDetail(0.9, 0.9, "table", credibility=0.05)))
            True
            >>> rule.low_credibility(rule.of(AuthorityDetail(0.05, 1.0, "table")))  # barely known
            False
        """
        if value.reason == "low credibility":
            return True
        return value.reason == "page evidence" and value.value < self.unknown_level * self.low_ceiling

    def _compute(self, detail: AuthorityDetail) -> TrustValue:
        u, r, c = self.unknown_level, detail.authority, detail.credibility
        page = detail.page_trust
        if page is not None:  # the page tier fills only what nothing else rates
            return TrustValue(min(1.0, max(0.0, page + u - UNKNOWN_LEVEL)), "page evidence")
        if c is not None and c < self.low:
            return TrustValue(u * self.low_ceiling * c / self.low, "low credibility")
        lift = 0.0 if r is None else max(0.0, r - u) / (1.0 - u) if u < 1.0 else 0.0
        if c is not None:
            strength = (c - self.low) / (1.0 - self.low)
            share = self.credible_share + (1.0 - self.credible_share) * lift
            return TrustValue(u + (1.0 - u) * strength * share,
                              "credible" if c >= CREDIBLE_FROM else "mixed credibility")
        if r is not None:
            return TrustValue(u + self.recognition_share * max(0.0, r - u), "recognition only")
        return TrustValue(u, "unknown")


DEFAULT_TRUST_RULE = TrustRule()
"""The rule every surface uses unless a policy changes the unknown level."""


def trust_rule_for(unknown_level: float) -> TrustRule:
    """The default rule with ``unknown_level`` as its unknown level (one shared rule per level)."""
    if unknown_level == DEFAULT_TRUST_RULE.unknown_level:
        return DEFAULT_TRUST_RULE
    rule = _RULES.get(unknown_level)
    if rule is None:
        rule = _RULES[unknown_level] = TrustRule(unknown_level=unknown_level)
    return rule


_RULES: dict[float, TrustRule] = {}


def trust_fields(detail: AuthorityDetail, rule: TrustRule = DEFAULT_TRUST_RULE) -> dict[str, float | str]:
    """``{"trust": value, "trust_reason": reason}`` for a JSON row beside ``detail.to_dict()``.

    Example:
        >>> trust_fields(AuthorityDetail(None, 0.0, "unknown"))
        {'trust': 0.3, 'trust_reason': 'unknown'}
    """
    tv = rule.of(detail)
    return {"trust": tv.value, "trust_reason": tv.reason}

__all__ = ["DEFAULT_TRUST_RULE", "TRUST_REASONS", "TrustRule", "trust_fields",
           "trust_rule_for"]
