"""``authorag priors fetch``: lists served by a loopback HTTP server started here (never the
network): zip and plain downloads, checksum and date in the provenance, tokens, clear errors."""
from __future__ import annotations

import calendar
import functools
import hashlib
import http.server
import io
import json
import os
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from authorag.cli import main
from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.store.fetch import LISTS, default_folder, download, import_download, rank_list
from authorag.priors.store.mapped import PriorStore


def _fetch(name: str, out: str | Path, *, url: str | None = None, sha256: str | None = None,
           folder: str | Path | None = None) -> Any:
    """What ``authorag priors fetch`` runs: the download, then its import into the store ``out``."""
    entry = rank_list(name)
    return import_download(entry, download(entry, folder or default_folder(out), url=url, sha256=sha256), out)


MAJESTIC = ("GlobalRank,TldRank,Domain,TLD\n1,1,google.com,com\n2,1,nih.gov,gov\n")


class _Handler(http.server.SimpleHTTPRequestHandler):
    seen: ClassVar[list[str | None]] = []  # Authorization headers received

    def do_GET(self) -> None:
        _Handler.seen.append(self.headers.get("Authorization"))
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(base URL, folder it serves) on 127.0.0.1."""
    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Handler.seen = []
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()
    server.server_close()
    thread.join()


def _dated(path: Path, day: str) -> Path:
    t = calendar.timegm((int(day[:4]), int(day[5:7]), int(day[8:]), 12, 0, 0))
    os.utime(path, (t, t))
    return path


def test_cli_fetch_zip_records_checksum_and_date(served: tuple[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    base, root = served
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("top-1m.csv", "1,google.com\n2,tiny-unknown-site.org\n")
    (root / "top-1m.csv.zip").write_bytes(buf.getvalue())
    _dated(root / "top-1m.csv.zip", "2024-03-01")  # served as Last-Modified
    out = tmp_path / "tranco.store"
    assert main(["priors", "fetch", "tranco", "--url", f"{base}/top-1m.csv.zip", "--out", str(out), "--json",
                 "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["entries"], summary["rows"]) == (2, 2)
    fetched = PriorStore(out).provenance["fetched"]
    assert fetched["sha256"] == hashlib.sha256(buf.getvalue()).hexdigest()
    assert (fetched["date"], fetched["bytes"], fetched["list"]) == ("2024-03-01", len(buf.getvalue()), "tranco")
    assert fetched["url"] == f"{base}/top-1m.csv.zip"
    assert PriorStore(out).provenance["files"][0]["date"] == "2024-03-01"  # the list's date, not today's
    assert PriorStore(out)["tiny-unknown-site.org"].raw == 2
    assert (tmp_path / "tranco.store.download" / "top-1m.csv").exists()


def test_fetch_plain_file_with_expected_checksum(served: tuple[str, Path], tmp_path: Path) -> None:
    base, root = served
    (root / "mirror.csv").write_text(MAJESTIC)
    digest = hashlib.sha256(MAJESTIC.encode()).hexdigest()
    result = _fetch("majestic", tmp_path / "m.store", url=f"{base}/mirror.csv", sha256=digest.upper())
    assert result.entries == 2 and PriorStore(result.out)["nih.gov"].raw == 2
    assert result.provenance["fetched"]["sha256"] == digest
    assert result.provenance["files"][0]["file"] == "majestic_million.csv"


def test_checksum_mismatch_stops_before_importing(served: tuple[str, Path], tmp_path: Path) -> None:
    base, root = served
    (root / "mirror.csv").write_text(MAJESTIC)
    digest = hashlib.sha256(MAJESTIC.encode()).hexdigest()
    with pytest.raises(PriorUnavailable, match=rf"has SHA-256 {digest}, expected 0{{64}}; the list changed or the "
                                               r"transfer was corrupted \(drop --sha256 to accept it\)"):
        _fetch("majestic", tmp_path / "m.store", url=f"{base}/mirror.csv", sha256="0" * 64)
    assert not (tmp_path / "m.store").exists()
    assert list((tmp_path / "m.store.download").iterdir()) == []


def test_http_error_names_the_url(served: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, _ = served
    with pytest.raises(PriorUnavailable, match=rf"cannot download {base}/gone.csv: HTTP Error 404: File not found; "
                                               r"check the address \(--url\)"):
        _fetch("tranco", tmp_path / "t.store", url=f"{base}/gone.csv")
    assert list((tmp_path / "t.store.download").iterdir()) == []  # no .part left behind
    assert main(["priors", "fetch", "tranco", "--url", f"{base}/gone.csv", "--out", str(tmp_path / "t.store"),
                 "--quiet"]) != 0
    assert "HTTP Error 404" in capsys.readouterr().err


def test_token_list_needs_its_variable_and_sends_it(served: tuple[str, Path], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    base, root = served
    (root / "radar.csv").write_text("domain\ngoogle.com\nnih.gov\n")
    monkeypatch.delenv("CLOUDFLARE_API_TOKEN", raising=False)
    with pytest.raises(ConfigError, match=r"the cloudflare list needs an API token: set CLOUDFLARE_API_TOKEN"):
        _fetch("cloudflare", tmp_path / "c.store", url=f"{base}/radar.csv")
    monkeypatch.setenv("CLOUDFLARE_API_TOKEN", "t0k")
    result = _fetch("cloudflare", tmp_path / "c.store", url=f"{base}/radar.csv")
    assert _Handler.seen == ["Bearer t0k"]
    assert result.entries == 2
    assert PriorStore(result.out)["nih.gov"].raw == 1_000_000  # the bucket, read from the registry's file name


def test_registry_names_known_lists() -> None:
    assert sorted(LISTS) == ["cloudflare", "majestic", "openpagerank", "tranco", "umbrella"]
    assert all(r.url.startswith("https://") and r.format == r.name for r in LISTS.values())
    with pytest.raises(ConfigError, match=r"unknown list 'alexa'; known: cloudflare, majestic, openpagerank"):
        _fetch("alexa", "x.store")


class _Redirect(http.server.BaseHTTPRequestHandler):
    """Answers every GET with a 302 to ``target`` (set per server) and records Authorization."""

    target: ClassVar[str] = ""
    seen: ClassVar[list[str | None]] = []

    def do_GET(self) -> None:
        _Redirect.seen.append(self.headers.get("Authorization"))
        self.send_response(302)
        self.send_header("Location", self.target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


@pytest.fixture
def redirector() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Redirect)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Redirect.seen = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def test_token_is_not_forwarded_to_another_origin(served: tuple[str, Path], redirector: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: a redirect to another host or port got ``Authorization: Bearer $TOKEN`` too."""
    base, root = served  # another port on 127.0.0.1: another origin
    (root / "radar.csv").write_text("domain\ngoogle.com\nnih.gov\n")
    monkeypatch.setenv("CLOUDFLARE_API_TOKEN", "s3cret")
    _Redirect.target = f"{base}/radar.csv"
    result = _fetch("cloudflare", tmp_path / "c.store", url=f"{redirector}/radar.csv")
    assert result.entries == 2
    assert _Redirect.seen == ["Bearer s3cret"]  # the origin the token was meant for
    assert _Handler.seen == [None]  # the other origin never sees it


def test_a_redirect_loop_is_one_line(redirector: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: urllib's three-line text ("...infinite loop.\nThe last 30x error message was:\nFound")."""
    _Redirect.target = f"{redirector}/majestic.csv"
    code = main(["priors", "fetch", "majestic", "--url", f"{redirector}/majestic.csv", "--out", str(tmp_path / "m.store")])
    err = capsys.readouterr().err.strip()
    assert code == 1 and err.count("\n") == 0
    assert err.endswith("the server redirects in a loop or too many times (last answer HTTP 302); check the "
                        "address (--url) and your network")


def test_token_follows_a_redirect_on_the_same_origin(served: tuple[str, Path], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    base, root = served
    (root / "radar.csv").write_text("domain\ngoogle.com\n")
    (root / "moved").mkdir()  # SimpleHTTPRequestHandler answers /moved with a 301 to /moved/
    (root / "moved" / "index.html").write_text("domain\nnih.gov\n")
    monkeypatch.setenv("CLOUDFLARE_API_TOKEN", "s3cret")
    _fetch("cloudflare", tmp_path / "c.store", url=f"{base}/moved")
    assert _Handler.seen == ["Bearer s3cret", "Bearer s3cret"]


class _Odd(http.server.BaseHTTPRequestHandler):
    """Serves a small list with the headers a test sets (bad Content-Length, Last-Modified...)."""

    headers_out: ClassVar[dict[str, str]] = {}
    body: ClassVar[bytes] = b""

    def do_GET(self) -> None:
        self.send_response(200)
        for name, value in self.headers_out.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


@pytest.fixture
def odd() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Odd)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


GOOD = b"1,google.com\n2,nih.gov\n"


@pytest.mark.parametrize("headers", [
    {"Content-Length": str(len(GOOD)), "Last-Modified": "yesterday-ish"},
    {"Content-Length": str(len(GOOD)), "Last-Modified": "Mon, 99 Foo 20240 99:99:99 GMT"},
    {"Content-Length": "abc", "Connection": "close"},
    {"Content-Length": "-5", "Connection": "close"},
    {"Connection": "close"},
])
def test_odd_headers_do_not_break_a_download(odd: str, tmp_path: Path, headers: dict[str, str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Was: a Content-Length that is not a number or an unreadable Last-Modified ended in a traceback."""
    _Odd.headers_out, _Odd.body = headers, GOOD
    out = tmp_path / "t.store"
    assert main(["priors", "fetch", "tranco", "--url", f"{odd}/top-1m.csv", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == 2
    fetched = PriorStore(out).provenance["fetched"]
    assert fetched["bytes"] == len(GOOD) and len(fetched["date"]) == 10  # the fetch date stands in


def test_a_short_body_is_a_failed_download(odd: str, tmp_path: Path) -> None:
    _Odd.headers_out, _Odd.body = {"Content-Length": "1000", "Connection": "close"}, GOOD
    with pytest.raises(PriorUnavailable, match=r"cannot download .*top-1m.csv: the connection closed before the announced end \(Content-Length\)"):
        _fetch("tranco", tmp_path / "t.store", url=f"{odd}/top-1m.csv")
    assert not (tmp_path / "t.store").exists()


@pytest.mark.parametrize("tail", ["/..", "/.", "/", "/%2e%2e", "/a%2Fb", "/..%2F..%2Fetc"])
def test_url_path_never_names_a_file_outside_the_folder(odd: str, tmp_path: Path, tail: str) -> None:
    """Was: ``--url http://host/..`` saved the download as ``..`` (a traceback, or the parent folder)."""
    _Odd.headers_out, _Odd.body = {"Content-Length": str(len(GOOD))}, GOOD
    folder = tmp_path / "dl"
    result = _fetch("tranco", tmp_path / "t.store", url=f"{odd}/lists{tail}", folder=folder)
    assert result.entries == 2
    assert sorted(p.name for p in folder.iterdir()) == ["top-1m.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dl", "t.store"]


@pytest.mark.parametrize("body", [b"", b"\n\n", b"<html>oops</html>\n", b"rank,domain\n", b"\x00\x01\x02"])
def test_an_empty_or_junk_download_fails_and_keeps_no_store(odd: str, tmp_path: Path, body: bytes,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Was: an empty or one-junk-line download wrote an empty store and exited 0."""
    _Odd.headers_out, _Odd.body = {"Content-Length": str(len(body))}, body
    out = tmp_path / "t.store"
    code = main(["priors", "fetch", "tranco", "--url", f"{odd}/top-1m.csv", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and not out.exists()
    assert "no tranco rows read from" in err and "no store was written" in err and "Traceback" not in err
    assert not (tmp_path / "t.store.parts").exists()


def test_a_damaged_zip_is_a_clear_error(odd: str, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("top-1m.csv", GOOD * 100)
    data = bytearray(buf.getvalue())
    data[60:90] = b"\xff" * 30  # inside the compressed member
    _Odd.headers_out, _Odd.body = {"Content-Length": str(len(data))}, bytes(data)
    with pytest.raises(PriorUnavailable, match=r"is a damaged zip archive .*; fetch it again"):
        _fetch("tranco", tmp_path / "t.store", url=f"{odd}/top-1m.csv.zip")
    assert not (tmp_path / "t.store").exists()
