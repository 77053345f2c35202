"""Source-type and query-topic suitability (issue 12): is this kind of source fit for this question?"""
from __future__ import annotations
