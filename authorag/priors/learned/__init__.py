"""The learned prior (tier ``learned``): authority predicted from the domain name.

:mod:`~authorag.priors.learned.model` holds the model and :class:`LearnedPrior`, the scorer;
:mod:`~authorag.priors.learned.features` (with :mod:`~authorag.priors.learned._namehash`) turns
registrable domains into features; :mod:`~authorag.priors.learned.train` fits the model from
the shipped authority sources plus the tail rows of :mod:`~authorag.priors.learned.tail_data`;
:mod:`~authorag.priors.learned.eval` is ``authorag priors eval`` (hash split, leave-source-out).
"""
from __future__ import annotations

from authorag.priors.learned.model import LearnedPrior, load_learned_prior

__all__ = ["LearnedPrior", "load_learned_prior"]
