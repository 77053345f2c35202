"""Vendored files never name the package-registry hosts this workplace reaches.

A workplace rule keeps the Python, npm and Debian package hosts out of every file (code, docs,
data). The test cannot name them either, so it compares SHA-256 prefixes of the registrable
domains (last two labels) it finds in every tracked text and gzip file.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"a4aa2ac280bb8d1a", "8b5bb5eb9d758455", "3ca29e55be4befa4", "8743857e3ea00fd1", "75adac515f0bd3db"}
"""sha256(domain)[:16] of the two Python registry domains, the two npm ones and Debian's."""
TEXT = (".py", ".md", ".csv", ".tsv", ".json", ".jsonl", ".yaml", ".yml", ".toml", ".txt", ".sh", ".cfg", ".gz")
HOST = re.compile(rb"(?<![a-z0-9-])((?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*)", re.IGNORECASE)


def _digests(text: bytes) -> set[str]:
    out: set[str] = set()
    for match in HOST.finditer(text):
        labels = match.group(1).lower().split(b".")
        out.add(hashlib.sha256(b".".join(labels[-2:])).hexdigest()[:16])
    return out


def test_digests_find_a_domain_inside_urls_and_sub_domains() -> None:
    probe = "example.org"
    digest = hashlib.sha256(probe.encode()).hexdigest()[:16]
    assert digest in _digests(b"see https://files.Example.ORG/x?y, or mail.example.org")
    assert digest not in _digests(b"anexample.orgs")


def test_no_tracked_file_names_a_registry_host() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders: list[str] = []
    for name in files:
        if not name.endswith(TEXT) or name.startswith(".venv"):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        raw = path.read_bytes()
        if name.endswith(".gz"):
            try:
                raw = gzip.decompress(raw)
            except OSError:
                continue
        if _digests(raw) & FORBIDDEN:
            offenders.append(name)
    assert offenders == [], f"files naming a package-registry host (remove those rows/lines): {offenders}"
