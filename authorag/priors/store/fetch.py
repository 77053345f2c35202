"""``authorag priors fetch NAME``: download a public rank list, then import it into a prior store.

For users with network access only: no test and no default command needs the network (the
tests serve files from a loopback HTTP server). The download's SHA-256, size, URL and date
go into the store's provenance next to what the import records.

The URLs below are configuration data: where each publisher put its list when this was
written. Lists move; ``--url`` (``url=``) overrides the address and keeps the format.

Example (needs network)::

    authorag priors fetch tranco --out tranco.store
    authorag priors fetch majestic --url https://mirror.example.org/majestic_million.csv
"""
from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import http.client
import logging
import os
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.store.import_job import ImportResult, import_lists
from authorag.settings import env_text

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RankList:
    """One downloadable list: where it is, how to import it, whose terms apply.

    Attributes:
        name: ``authorag priors fetch`` name.
        format: the ``priors import --format`` it is read with.
        url: download address (a ``.zip`` holds one CSV, which is extracted).
        file: the name the (extracted) list is saved under; some formats read it (Cloudflare's bucket).
        terms: the publisher's licence or terms, in short.
        token_env: environment variable with an API token sent as ``Authorization: Bearer``.
    """

    name: str
    format: str
    url: str
    file: str
    terms: str
    token_env: str | None = None


LISTS: Mapping[str, RankList] = MappingProxyType({r.name: r for r in (
    RankList("tranco", "tranco", "https://tranco-list.eu/top-1m.csv.zip", "top-1m.csv",
             "free to use; cite Le Pochat et al., NDSS 2019"),
    RankList("majestic", "majestic", "https://downloads.majestic.com/majestic_million.csv", "majestic_million.csv",
             "CC BY 3.0 (Majestic)"),
    RankList("umbrella", "umbrella", "https://s3-us-west-1.amazonaws.com/umbrella-static/top-1m.csv.zip",
             "top-1m.csv", "Cisco Umbrella: free, see Cisco's terms"),
    RankList("cloudflare", "cloudflare", "https://api.cloudflare.com/client/v4/radar/datasets/ranking_top_1000000",
             "cloudflare-radar_top-1000000.csv", "CC BY-NC 4.0 (Cloudflare Radar); needs an API token",
             token_env="CLOUDFLARE_API_TOKEN"),
    RankList("openpagerank", "openpagerank", "https://www.domcop.com/files/top/top10milliondomains.csv.zip",
             "top10milliondomains.csv", "DomCop Open PageRank: free, see DomCop's terms"),
)})
"""The lists ``authorag priors fetch`` knows (name → :class:`RankList`)."""

Progress = Callable[[int, int | None], None]
"""Called with (bytes downloaded, total bytes or None)."""


@dataclass(frozen=True, slots=True)
class Download:
    """A finished download: the file to import and what provenance records about it."""

    path: Path
    provenance: dict[str, Any]


def rank_list(name: str) -> RankList:
    """The registered list ``name``; ConfigError naming the known ones otherwise."""
    try:
        return LISTS[name]
    except KeyError:
        raise ConfigError(f"unknown list {name!r}; known: {', '.join(sorted(LISTS))}") from None


def download(entry: RankList, folder: str | Path, *, url: str | None = None, sha256: str | None = None,
             progress: Progress | None = None, timeout: float = 60.0) -> Download:
    """Download ``entry`` into ``folder`` (extracting a zip), checking ``sha256`` when given.

    Raises:
        PriorUnavailable: an HTTP or network error, or the checksum differs (nothing is kept).
        ConfigError: the list needs a token that is not set, or a zip holds no single list.
    """
    address = url or entry.url
    target = Path(folder) / download_name(address, entry.file)
    target.parent.mkdir(parents=True, exist_ok=True)
    digest, size, modified = _get(_request(entry, address), target, progress, timeout)
    if sha256 is not None and digest != sha256.lower():
        target.unlink()
        raise PriorUnavailable(f"the {entry.name} download from {address} has SHA-256 {digest}, expected {sha256}; "
                               "the list changed or the transfer was corrupted (drop --sha256 to accept it)")
    listed = _extract(target, Path(folder) / entry.file) if zipfile.is_zipfile(target) else _renamed(target, entry)
    fetched = dt.datetime.now(dt.UTC)
    date = (modified or fetched).date().isoformat()
    return Download(listed, {"list": entry.name, "url": address, "sha256": digest, "bytes": size,
                             "fetched": fetched.isoformat(timespec="seconds"), "date": date, "terms": entry.terms})


_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


def download_name(address: str, default: str) -> str:
    """The file name a download is saved under: the URL's last path segment when it is a plain
    file name (letters, digits, ``._-``), else ``default`` (``/..``, ``/``, ``%2F`` never reach
    the file system).

    Example:
        >>> download_name("https://mirror.example.org/lists/top-1m.csv.zip?x=1", "top-1m.csv")
        'top-1m.csv.zip'
        >>> download_name("https://mirror.example.org/lists/..", "top-1m.csv")
        'top-1m.csv'
    """
    last = urllib.parse.unquote(urllib.parse.urlsplit(address).path).rsplit("/", 1)[-1]
    return last if _SAFE_NAME.fullmatch(last) and set(last) != {"."} else default


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(parts.scheme.lower())


class _CredentialSafeRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, but send ``Authorization`` and ``Cookie`` only to the origin they were
    meant for: a redirect to another scheme, host or port drops them (as curl and browsers do)."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and _origin(new.full_url) != _origin(req.full_url):
            for name in _CREDENTIAL_HEADERS:
                new.headers.pop(name, None)
                new.unredirected_hdrs.pop(name, None)
            log.info("redirected to another origin (%s): credentials not forwarded", _origin(new.full_url)[1])
        return new


_CREDENTIAL_HEADERS = ("Authorization", "Cookie", "Proxy-authorization")
_OPENER = urllib.request.build_opener(_CredentialSafeRedirects)


def _request(entry: RankList, address: str) -> urllib.request.Request:
    headers = {"User-Agent": "authorag-priors-fetch"}
    if entry.token_env is not None:
        token = env_text(entry.token_env)
        if not token:
            raise ConfigError(f"the {entry.name} list needs an API token: set {entry.token_env} "
                              f"({entry.terms})")
        headers["Authorization"] = f"Bearer {token}"
    return urllib.request.Request(address, headers=headers)


def _get(request: urllib.request.Request, target: Path, progress: Progress | None,
         timeout: float) -> tuple[str, int, dt.datetime | None]:
    """Stream the response into ``target``; (SHA-256, bytes, Last-Modified)."""
    partial = target.with_name(target.name + ".part")
    sha = hashlib.sha256()
    done = 0
    try:
        with _OPENER.open(request, timeout=timeout) as response, partial.open("wb") as f:
            total = _content_length(response.headers.get("Content-Length"))
            modified = _http_date(response.headers.get("Last-Modified"))
            while block := response.read(1 << 20):
                f.write(block)
                sha.update(block)
                done += len(block)
                if progress is not None:
                    progress(done, total)
            if total is not None and done != total:
                raise http.client.IncompleteRead(b"", total - done)
        os.replace(partial, target)
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
        partial.unlink(missing_ok=True)
        raise PriorUnavailable(f"cannot download {request.full_url}: {_reason(exc)}; check the address (--url) "
                               "and your network") from exc
    return sha.hexdigest(), done, modified


def _reason(exc: BaseException) -> str:
    """What went wrong, on one line."""
    if isinstance(exc, http.client.IncompleteRead):  # its repr holds the partial body
        return "the connection closed before the announced end (Content-Length)"
    if isinstance(exc, urllib.error.HTTPError) and 300 <= exc.code < 400:  # urllib's text spans three lines
        return f"the server redirects in a loop or too many times (last answer HTTP {exc.code})"
    return " ".join(str(exc).split()) or type(exc).__name__


def _content_length(value: str | None) -> int | None:
    """A ``Content-Length`` as bytes, or None when it is missing or not a plain number."""
    return int(value) if value is not None and value.strip().isdigit() and len(value) < 20 else None


def _http_date(value: str | None) -> dt.datetime | None:
    """A ``Last-Modified`` date, or None when it is missing or unreadable (the fetch date is used)."""
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError, IndexError):
        log.warning("ignoring an unreadable Last-Modified header %r", value[:80])
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=dt.UTC)


def _extract(archive: Path, dest: Path) -> Path:
    try:
        with zipfile.ZipFile(archive) as z:
            members = [m for m in z.infolist() if not m.is_dir()]
            if len(members) == 1:
                with z.open(members[0]) as src, dest.open("wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, NotImplementedError) as exc:
        dest.unlink(missing_ok=True)
        raise PriorUnavailable(f"the download {archive} is a damaged zip archive ({exc}); fetch it again") from exc
    if len(members) != 1:
        raise ConfigError(f"{archive.name} holds {len(members)} files, expected one list: "
                          f"{[m.filename for m in members][:5]}")
    return dest


def _renamed(path: Path, entry: RankList) -> Path:
    """Give a plain download the registry's file name (the Cloudflare bucket is read from it)."""
    if path.name == entry.file or path.name.endswith(".gz"):
        return path
    dest = path.with_name(entry.file)
    os.replace(path, dest)
    return dest


def default_folder(out: str | Path) -> Path:
    """Where downloads for the store ``out`` are kept: ``<out>.download/``."""
    return Path(out).with_name(Path(out).name + ".download")


def import_download(entry: RankList, got: Download, out: str | Path, **import_kw: Any) -> ImportResult:
    """Import a finished download into the store ``out``, its download record in the provenance."""
    log.info("downloaded %s (%d bytes, sha256 %s)", got.path, got.provenance["bytes"], got.provenance["sha256"])
    return import_lists(entry.format, [got.path], out, name=entry.name, options={"date": got.provenance["date"]},
                        extra_provenance={"fetched": got.provenance}, **import_kw)
