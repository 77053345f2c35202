"""PageEvidence: a credibility estimate for a page whose domain no table knows, from the page itself.

:meth:`PageEvidence.estimate` reads the URL and source-type layers
(:mod:`authorag.evidence.features`) and the text layer (:mod:`authorag.evidence.text`: the
page's language and the cues present in it) and either **speaks** or **abstains**:

* it speaks downwards (trust at or below :data:`~authorag.types.UNKNOWN_LEVEL`) only on a cue
  that is present and known to mean low credibility (spam, sales or miracle-cure language,
  clickbait, distrust of institutions, alarm and calls to spread, sensational punctuation,
  shouting capitals, an affiliate link, cure words in the domain name, a listed content farm);
* it speaks upwards only on present high cues (attributed statements, named studies and
  sources) and with no low cue, by at most :data:`MAX_LIFT`;
* otherwise it abstains, and the page stays at the unknown level: no text, a language it does not
  read, too few words, or no known cue. No URL pattern (a hosting platform's sub-site included)
  makes a page credible.

Every reason names the cue and the words (or pattern) found in that page. The verdict is a
field: :attr:`PageEstimate.spoke`, and ``page.status`` (``spoke`` / ``abstained``) with
``page.why`` among the detail's credibility sources. Bad input never raises.

Example:
    >>> from authorag.types import Candidate
    >>> page = PageEvidence()
    >>> est = page.estimate([Candidate.create("https://zq-cure4all.biz/product?hop=x", ""),
    ...                      Candidate.create("https://zq-blog.biz/", "")])
    >>> est[0].spoke, est[0].cues, est[1].spoke, est[1].why
    (True, ('affiliate referral parameter', 'cure words in the domain name (zq-cure4all)'), False, 'no page text; no known cue in the address')
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from authorag.bounded import BoundedDict
from authorag.evidence.features import MEMO_KEY_CHARS, MEMO_SIZE, UrlEvidence, UrlReader
from authorag.evidence.model import PageModel, load_page_model, page_trust
from authorag.evidence.text import HIGH_FAMILIES, TextBatch, read_texts
from authorag.evidence.url import HOSTED_CUE, URL_FEATURES
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.types import UNKNOWN_DETAIL, UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue

MAX_CONFIDENCE = 0.5
"""A page's own evidence never claims more confidence than a suffix rule."""
FULL_WORDS = 500
"""Words of text at which the text layer's share of the confidence is full."""
URL_ONLY_CONFIDENCE = 0.3
"""Share of :data:`MAX_CONFIDENCE` a URL cue gives without text."""
MAX_LIFT = 0.06
"""Most trust page evidence adds above the unknown level (present high cues, no low cue)."""
LIFT_FAMILIES: frozenset[str] = frozenset(HIGH_FAMILIES)
"""High cue families (:data:`~authorag.evidence.text.HIGH_FAMILIES`) that may lift a page above the
unknown level; a page whose only cues are of other high families abstains."""
FILLS_TIERS = frozenset({"unknown", "hosted", "learned", "judge"})
"""Tiers whose details the page tier adds credibility to (when they carry none): every tier that is
not a table, a suffix rule or a reserved name."""
STATUS_SOURCE, WHY_SOURCE = "page.status", "page.why"
"""Credibility-source names of the verdict (raw ``spoke`` / ``abstained``) and its reason."""
PAGE_EVIDENCE_SOURCE = "page"
"""Credibility-source name of the page's value (raw: its credibility), shown in the breakdown; the
trust rule reads the value from :attr:`~authorag.types.AuthorityDetail.page_trust`, not from here."""


@dataclass(frozen=True, slots=True)
class LayerEvidence:
    """One layer's part of a page estimate.

    Attributes:
        layer: ``url``, ``type`` or ``text``.
        contribution: its contribution to the cue score (0: no cue).
        reason: what the layer saw.
    """

    layer: str
    contribution: float
    reason: str


@dataclass(frozen=True, slots=True)
class PageEstimate:
    """What a page's own evidence says about its credibility.

    Attributes:
        credibility: calibrated probability that the page is credible; None when it abstained.
        trust: the value on the trust scale (``UNKNOWN_LEVEL`` when it abstained).
        confidence: 0 (abstained) to :data:`MAX_CONFIDENCE`.
        score: the cue score (0 when it abstained).
        layers: each layer's contribution and reason.
        cues: each cue found, with what was found (empty when it abstained).
        why: why it spoke (the cues) or abstained.
        language: the page's language (None without text).
    """

    credibility: float | None
    trust: float
    confidence: float
    score: float
    layers: tuple[LayerEvidence, ...]
    cues: tuple[str, ...]
    why: str
    language: str | None = None

    @property
    def spoke(self) -> bool:
        """True when page evidence moved the page off the unknown level (or held it there on a low cue)."""
        return self.credibility is not None

    @property
    def reason(self) -> str:
        """One line for the note."""
        if not self.spoke:
            return f"page evidence abstained: {self.why}"
        return f"page evidence spoke: credible with p={self.credibility:.2f} (trust {self.trust:.3f}) from {self.why}"


class PageEvidence:
    """The page-evidence tier (usable alone as an ``AuthorityScorer`` of tier ``page``).

    Args:
        model: the model (default: the shipped one, :func:`~authorag.evidence.model.load_page_model`).
        classifier: the source-type classifier of the type layer (default: URL rule layers).

    Example:
        >>> from authorag.types import Candidate
        >>> d = PageEvidence().score([Candidate.create("https://zq-cure4all.biz/cart?hop=x", "")])[0]
        >>> d.tier, d.authority, d.credibility < 0.3
        ('page', None, True)
    """

    name = "page"

    def __init__(self, model: PageModel | None = None, *, classifier: SourceTypeClassifier | None = None,
                 memo_size: int = MEMO_SIZE) -> None:
        self.model = load_page_model() if model is None else model
        self.classifier = classifier
        self.memo_size = memo_size
        self._memo_for: tuple[PageModel, SourceTypeClassifier | None] = (self.model, classifier)
        self._reader = UrlReader(classifier, memo_size)
        self._details: BoundedDict[tuple[str, int, int], _Remembered] = BoundedDict(memo_size)
        # The details are remembered only for this class's own estimate (a subclass may estimate otherwise).
        self._remember = memo_size > 0 and type(self).estimate is PageEvidence.estimate

    def _fresh_memos(self) -> None:
        """Forget what was remembered for another model or classifier (both are public attributes)."""
        if self._memo_for[0] is not self.model or self._memo_for[1] is not self.classifier:
            self._memo_for = (self.model, self.classifier)
            self._reader = UrlReader(self.classifier, self.memo_size)
            self.forget_pages()

    def forget_pages(self) -> None:
        """Forget the remembered page details (the URL and source-type readings stay remembered)."""
        self._details = BoundedDict(self.memo_size)

    def estimate(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> list[PageEstimate]:
        """One estimate per candidate, in order (``hosted``: see :func:`~authorag.evidence.features.url_evidence`)."""
        if not candidates:
            return []
        self._fresh_memos()
        evidence = self._reader.read(candidates, hosted)
        texts = read_texts([c.text for c in candidates])
        return [_one(self.model, ev, texts, i) for i, ev in enumerate(evidence)]

    def detail(self, estimate: PageEstimate, base: AuthorityDetail = UNKNOWN_DETAIL) -> AuthorityDetail:
        """``base`` with the page's credibility added (tier ``page`` when ``base`` is unknown) and the
        verdict (``page.status``, ``page.why``) among its credibility sources.

        An estimate that abstained returns ``base`` with the verdict and the reason added to its note.
        """
        note = f"{base.note}; {estimate.reason}" if base.note else estimate.reason
        verdict = (SourceValue(STATUS_SOURCE, 1.0 if estimate.spoke else 0.0, "spoke" if estimate.spoke else "abstained"),
                   SourceValue(WHY_SOURCE, 0.0, estimate.why))
        if estimate.credibility is None:
            return dataclasses.replace(base, credibility_sources=(*base.credibility_sources, *verdict), note=note)
        url, stype, text = estimate.layers
        sources = (SourceValue(PAGE_EVIDENCE_SOURCE, estimate.trust, round(estimate.credibility, 4)), *verdict,
                   SourceValue("page.url", url.contribution, url.reason),
                   SourceValue("page.type", stype.contribution, stype.reason),
                   SourceValue("page.text", text.contribution, text.reason))
        unknown = base.tier == "unknown"
        return AuthorityDetail(base.authority, estimate.confidence if unknown else base.confidence,
                               "page" if unknown else base.tier, base.sources, estimate.trust,
                               (*base.credibility_sources, *sources), base.matched, note, base.skipped,
                               page_trust=estimate.trust)

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """``AuthorityScorer`` protocol: the page tier alone (every candidate treated as unknown)."""
        return self._filled(candidates, [UNKNOWN_DETAIL] * len(candidates), None)

    def fill(self, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail]) -> list[AuthorityDetail]:
        """``details`` with page credibility added where their tier is in :data:`FILLS_TIERS` and no
        credibility is known (the page tier behind another scorer)."""
        return self._filled(candidates, details, True)

    def _filled(self, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail],
                hosted_known: bool | None) -> list[AuthorityDetail]:
        """The details of :meth:`fill` (``hosted_known``: a base of tier ``hosted`` says the page is
        hosted) or of :meth:`score` (None: the URL layer asks the platform index).

        The detail of a candidate depends only on its URL, text, host, domain and base detail (a
        tier hands out the same detail object for the same source), so it is remembered per URL and
        text: the key holds the text's length and ``hash`` (Python's string hash is keyed per
        process, so two texts cannot be made to collide on purpose), never the text itself, so the
        memo's memory stays bounded by its size whatever the texts' length. It is used only from
        batches of two or more, and a lone miss is estimated beside another candidate: numpy adds
        the layer sums of a one-row batch in another order (pairwise, not column by column), which
        can move the last bit of a value.
        """
        self._fresh_memos()
        todo = [i for i, d in enumerate(details) if d.credibility is None and d.tier in FILLS_TIERS]
        out, memo = list(details), self._details
        if len(todo) > 1 and self._remember:
            todo, hits = [], todo
            for i in hits:
                c = candidates[i]
                hit = memo.get((c.url, len(c.text), hash(c.text)))
                if hit is not None and hit.base is details[i] and hit.host == c.host and hit.domain == c.domain:
                    out[i] = hit.detail
                else:
                    todo.append(i)
            if len(todo) == 1:
                todo.append(next(i for i in hits if i != todo[0]))
        if not todo:
            return out
        hosted = None if hosted_known is None else [details[i].tier == "hosted" for i in todo]
        for i, est in zip(todo, self.estimate([candidates[i] for i in todo], hosted)):
            out[i] = detail = self.detail(est, details[i])
            c = candidates[i]
            if len(todo) > 1 and self._remember and len(c.url) <= MEMO_KEY_CHARS:
                memo.put((c.url, len(c.text), hash(c.text)), _Remembered(c.host, c.domain, details[i], detail))
        return out

    def __repr__(self) -> str:
        return f"PageEvidence(model={self.model.meta.get('name', 'custom')!r})"


@dataclass(frozen=True, slots=True)
class _Remembered:
    """The detail a candidate got, with what it depends on besides its URL and text."""

    host: str | None
    domain: str | None
    base: AuthorityDetail
    detail: AuthorityDetail


def _abstain(ev: UrlEvidence, texts: TextBatch, i: int) -> PageEstimate:
    """The estimate of a page with no known cue: the unknown level, with why."""
    status = texts.status[i]
    head = f"no known cue in {texts.words[i]} words ({texts.language[i]})" if status == "read" else texts.reason(i)
    tail = "; the hosting platform's address is not evidence" if ev.url.values[_HOSTED_AT] else ""
    why = f"{head}; no known cue in the address{tail}"
    layers = (LayerEvidence("url", 0.0, ev.url_reason), LayerEvidence("type", 0.0, ev.type_reason),
              LayerEvidence("text", 0.0, texts.reason(i)))
    return PageEstimate(None, UNKNOWN_LEVEL, 0.0, 0.0, layers, (), why, texts.language[i])


def _one(model: PageModel, ev: UrlEvidence, texts: TextBatch, i: int) -> PageEstimate:
    """One candidate's estimate: its present cues scored, calibrated and bounded, or abstention."""
    text_cues = texts.cues[i]
    low_text = [c for c in text_cues if c.low]
    high = [] if (low_text or ev.low_cues) else [c for c in text_cues if not c.low and c.family in LIFT_FAMILIES]
    if not (low_text or ev.low_cues or high):
        unused = [c.reason for c in text_cues if not c.low]
        weak = _abstain(ev, texts, i)
        return dataclasses.replace(weak, why=f"credibility cues that never lift a page: {'; '.join(unused)}") \
            if unused else weak
    url_low = [(n, 0.0) for n, _ in ev.low_cues if n.startswith("u.")]
    type_low = [(n, 0.0) for n, _ in ev.low_cues if n.startswith("s.")]
    text_score = model.score([(c.family, c.rate) for c in low_text], [c.family for c in high])
    parts = (model.score(url_low, ()), model.score(type_low, ()), text_score)
    score = sum(parts)
    prob = model.calibrated(score)
    trust = page_trust(prob, model.base_rate)
    down = bool(low_text or ev.low_cues)
    cues = (*(why for _, why in ev.low_cues), *(c.reason for c in (*low_text, *high)))
    kind = "low-credibility cues" if down else "credibility cues"
    if (trust >= UNKNOWN_LEVEL) if down else (trust <= UNKNOWN_LEVEL):
        weak = _abstain(ev, texts, i)
        return dataclasses.replace(weak, why=f"{kind} too weak to move the page: {'; '.join(cues)}")
    trust = min(trust, UNKNOWN_LEVEL + MAX_LIFT)
    words = texts.words[i]
    share = min(1.0, words / FULL_WORDS) if text_cues else 0.0
    confidence = MAX_CONFIDENCE * max(share, URL_ONLY_CONFIDENCE if ev.low_cues else 0.0)
    text_reason = f"{words} words read ({texts.language[i]})" if texts.status[i] == "read" else texts.reason(i)
    if low_text or high:
        text_reason += ": " + "; ".join(c.reason for c in (*low_text, *high))
    layers = (LayerEvidence("url", round(parts[0], 4), ev.url_reason),
              LayerEvidence("type", round(parts[1], 4), ev.type_reason),
              LayerEvidence("text", round(parts[2], 4), text_reason))
    return PageEstimate(prob, trust, round(confidence, 4), round(score, 4), layers, cues,
                        f"{kind}: {'; '.join(cues)}", texts.language[i])


_HOSTED_AT = URL_FEATURES.index(HOSTED_CUE)


__all__ = ["FILLS_TIERS", "LIFT_FAMILIES", "MAX_CONFIDENCE", "MAX_LIFT", "PAGE_EVIDENCE_SOURCE", "STATUS_SOURCE", "WHY_SOURCE", "LayerEvidence", "PageEstimate", "PageEvidence"]
