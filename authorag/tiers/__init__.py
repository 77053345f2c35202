"""The tiers in front of and beyond the prior table, and the scorers that compose them.

:mod:`~authorag.tiers.tiered` is ``TieredAuthority``: the ``reserved`` tier
(:mod:`~authorag.tiers.reserved`, special-use names and IPs) and the ``hosted`` tier (user pages
on the hosting platforms of :mod:`authorag.platforms`) answer first, then the inner scorer.
:mod:`~authorag.tiers.hybrid` is ``HybridAuthority`` (opt-in): table, then learned prior, then
judge, by confidence and budget. Both are exported by :mod:`authorag`.
"""
