"""Hosting platforms (tier 0b) and special-use names (tier 0a)."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.platforms import HostedMatch, PlatformIndex, default_platforms, match_platform, parse_rules, url_path
from authorag.tiers.reserved import host_of, maybe_special, special_host


@pytest.mark.parametrize("url,platform,owner,ctype", [
    ("https://johndoe.wordpress.com/x", "wordpress.com", "johndoe.wordpress.com", "blog"),
    ("https://medium.com/@john/x", "medium.com", "medium.com/@john", "blog"),
    ("https://medium.com/towards-data-science/a-post", "medium.com", "medium.com/towards-data-science", "blog"),
    ("https://sites.google.com/view/cure", "google.com", "sites.google.com/view/cure", "site"),
    ("https://www.reddit.com/r/AskDocs/comments/abc/x", "reddit.com", "reddit.com/r/askdocs", "forum"),
    ("https://old.reddit.com/user/someone", "reddit.com", "reddit.com/user/someone", "forum"),
    ("https://www.quora.com/Does-x", "quora.com", None, "qa"),
    ("https://john.substack.com/p/x", "substack.com", "john.substack.com", "blog"),
    ("https://john.tumblr.com", "tumblr.com", "john.tumblr.com", "blog"),
    ("https://someone.blogspot.com/x", "blogspot.com", "someone.blogspot.com", "blog"),
    ("https://www.youtube.com/watch?v=abc", "youtube.com", None, "video"),
    ("https://m.youtube.com/@somechannel/videos", "youtube.com", "youtube.com/@somechannel", "video"),
    ("https://github.com/psf/requests", "github.com", "github.com/psf", "code"),
    ("https://user.github.io/notes", "github.io", "user.github.io", "code"),
    ("https://docs.google.com/document/d/1x/edit", "google.com", None, "document"),
    ("https://x.com/jack/status/1", "x.com", "x.com/jack", "social"),
    ("https://www.linkedin.com/pulse/why-x-bob", "linkedin.com", "linkedin.com/pulse/why-x-bob", "blog"),
    ("https://stackoverflow.com/questions/1/how", "stackoverflow.com", None, "qa"),
    # a host's rule holds for its language editions
    ("https://fr.quora.com/Comment-les-oiseaux-trouvent-leur-chemin", "quora.com", None, "qa"),
    ("https://es.answers.yahoo.com/question/index?qid=1", "yahoo.com", None, "qa"),
    ("https://es.stackoverflow.com/questions/1/como", "stackoverflow.com", None, "qa"),
    ("https://pt-br.quora.com/x", "quora.com", None, "qa"),
    # user content hosts of German, Spanish and French users
    ("https://someone.blogspot.de/2020/x.html", "blogspot.de", "someone.blogspot.de", "blog"),
    ("https://someone.blogspot.com.es/x", "blogspot.com.es", "someone.blogspot.com.es", "blog"),
    ("https://ami.skyrock.com/1.html", "skyrock.com", "ami.skyrock.com", "blog"),
    ("https://x.webnode.es/", "webnode.es", "x.webnode.es", "site"),
    ("https://telegra.ph/Cure-01-01", "telegra.ph", None, "blog"),
    ("https://www.wer-weiss-was.de/t/frage/1", "wer-weiss-was.de", None, "qa"),
    # uploads, project hosts and site builders whose own recognition the users' pages had taken
    ("https://www.academia.edu/12345/A_paper", "academia.edu", None, "document"),
    ("https://requests.readthedocs.io/en/latest/", "readthedocs.io", "requests.readthedocs.io", "code"),
    ("https://someone.gitbook.io/notes", "gitbook.io", "someone.gitbook.io", "document"),
    ("https://sourceforge.net/projects/tool/", "sourceforge.net", "sourceforge.net/projects/tool", "code"),
    ("https://huggingface.co/someone/model", "huggingface.co", "huggingface.co/someone", "code"),
    ("https://huggingface.co/spaces/someone/demo", "huggingface.co", "huggingface.co/spaces/someone", "code"),
    ("https://docs.rs/somecrate/latest/somecrate/", "docs.rs", "docs.rs/somecrate", "code"),
    ("https://pastebin.com/AbC123", "pastebin.com", None, "document"),
    ("https://meinverein.de.tl/", "de.tl", "meinverein.de.tl", "site"),
    ("https://www.trustpilot.com/review/shop.example", "trustpilot.com", None, "social"),
    # Russian users' question, story, blog and wall posts, and a Hindi edition of a Q&A site
    ("https://otvet.mail.ru/question/238416702", "mail.ru", None, "qa"),
    ("https://pikabu.ru/story/kak_ya_menyal_zagranpasport_123", "pikabu.ru", None, "forum"),
    ("https://pikabu.ru/@someone", "pikabu.ru", "pikabu.ru/@someone", "forum"),
    ("https://dzen.ru/a/ZkT3q8Vv7n1xR2pD", "dzen.ru", None, "blog"),
    ("https://vk.com/wall-12345_678", "vk.com", None, "social"),
    ("https://hi.quora.com/some-question", "quora.com", None, "qa"),
    # Turkish, Polish and Indonesian users' entries, posts, threads, blogs and homework answers
    ("https://eksisozluk.com/lale-devri--123456", "eksisozluk.com", None, "forum"),
    ("https://eksisozluk.com/biri/ahmet", "eksisozluk.com", "eksisozluk.com/biri/ahmet", "forum"),
    ("https://wykop.pl/wpis/7712/x", "wykop.pl", None, "social"),
    ("https://www.kaskus.co.id/thread/5f1/abc", "kaskus.co.id", None, "forum"),
    ("https://www.kompasiana.com/budi123/5f0a/judul", "kompasiana.com", "kompasiana.com/budi123", "blog"),
    ("https://brainly.co.id/tugas/123", "brainly.co.id", None, "qa"),
    ("https://brainly.com.br/tarefa/123", "brainly.com.br", None, "qa"),
    ("https://brainly.lat/tarea/123", "brainly.lat", None, "qa"),
    # Vietnamese, Persian and Bengali users' threads and blogs
    ("https://voz.vn/t/hoi-ve-thue-tncn.912345/", "voz.vn", None, "forum"),
    ("https://tinhte.vn/thread/cach-go-tieng-viet.3812345/", "tinhte.vn", None, "forum"),
    ("https://www.ninisite.com/discussion/thread/1234567", "ninisite.com", None, "forum"),
    ("https://www.somewhereinblog.net/blog/someone/30312345", "somewhereinblog.net", "somewhereinblog.net/blog/someone", "blog"),
    ("https://virgool.io/@someone/post-abc", "virgool.io", "virgool.io/@someone", "blog"),
    # Japanese, Korean and Chinese users' questions, threads and blogs
    ("https://detail.chiebukuro.yahoo.co.jp/qa/question_detail/q12184736095", "yahoo.co.jp", None, "qa"),
    ("https://oshiete.goo.ne.jp/qa/1234567.html", "goo.ne.jp", None, "qa"),
    ("https://note.com/someone/n/n1a2b3c", "note.com", "note.com/someone", "blog"),
    ("https://kin.naver.com/qna/detail.naver?d1id=1", "naver.com", None, "qa"),
    ("https://blog.naver.com/someone/2231", "naver.com", "blog.naver.com/someone", "blog"),
    ("https://tieba.baidu.com/p/8912345678", "baidu.com", None, "forum"),
    ("https://zhidao.baidu.com/question/1.html", "baidu.com", None, "qa"),
    ("https://zhuanlan.zhihu.com/p/123", "zhihu.com", None, "blog"),
    ("https://www.ptt.cc/bbs/Gossiping/M.1.html", "ptt.cc", None, "forum"),
    ("https://komachi.yomiuri.co.jp/topics/id/1098765", "yomiuri.co.jp", None, "forum"),
    # Dutch, Swedish, Hungarian and British users' threads and questions
    ("https://gathering.tweakers.net/forum/list_messages/2241903", "tweakers.net", None, "forum"),
    ("https://www.flashback.org/t3412345", "flashback.org", None, "forum"),
    ("https://www.gyakorikerdesek.hu/egeszseg__betegsegek__123-x", "gyakorikerdesek.hu", None, "qa"),
    ("https://www.mumsnet.com/talk/am_i_being_unreasonable/123-x", "mumsnet.com", None, "forum"),
    ("https://keskustelu.suomi24.fi/t/1234567/x", "suomi24.fi", None, "forum"),
    ("https://www.kvinneguiden.no/forum/topic/123-x/", "kvinneguiden.no", None, "forum"),
])
def test_user_pages(url: str, platform: str, owner: str | None, ctype: str) -> None:
    assert match_platform(url) == HostedMatch(platform, owner, ctype, False)


@pytest.mark.parametrize("url", [
    "https://wordpress.com/support/x", "https://medium.com/about", "https://www.reddit.com/",
    "https://www.quora.com/about", "https://substack.com/about", "https://www.youtube.com/about",
    "https://github.com/about", "https://github.com/github/docs", "https://x.com/tos",
    "https://www.facebook.com/help/123", "https://sites.google.com/", "https://www.linkedin.com/company/x",
    "https://en.support.wordpress.com/x", "https://medium.com/", "https://fr.quora.com/about",
    "https://www.academia.edu/about", "https://docs.readthedocs.io/en/stable/", "https://huggingface.co/docs/hub",
    "https://docs.rs/about", "https://pastebin.com/faq", "https://eksisozluk.com/basliklar/gundem",
    "https://www.kompasiana.com/tag/politik",
])
def test_platform_own_pages_are_official(url: str) -> None:
    hit = match_platform(url)
    assert hit is not None and hit.official and hit.owner is None


@pytest.mark.parametrize("url,site", [
    ("https://forum.doctissimo.fr/grossesse-bebe/sujet_1.html", "doctissimo.fr"),
    ("https://www.yomiuri.co.jp/forum/x/1", "yomiuri.co.jp"),  # a platform host no rule names
    ("https://forums.macrumors.com/threads/x.1/", "macrumors.com"),
    ("https://foro.example.es/t/123", "example.es"),
    ("https://community.spotify.com/t5/x", "spotify.com"),
    ("https://answers.microsoft.com/en-us/windows/forum/x", "microsoft.com"),
    ("https://discuss.python.org/t/x/1", "python.org"),
    ("https://de.forum.example.de/x", "example.de"),
    ("https://www.forum.example.de/x", "example.de"),
])
def test_forum_sub_domains_of_any_site_are_user_pages(url: str, site: str) -> None:
    assert match_platform(url) == HostedMatch(site, None, "forum", False)


@pytest.mark.parametrize("url", ["https://www.doctissimo.fr/sante", "https://forum-example.fr/x",
                                 "https://forum.fr/x", "https://forum.example.de.evil.net/x",
                                 "https://forums.example.com.evil.net/x"])
def test_forum_names_elsewhere_in_the_host_are_not(url: str) -> None:
    assert match_platform(url) is None


@pytest.mark.parametrize("url,site", [
    ("https://www.doctissimo.fr/forum/environnement/ciel-rouge-coucher-soleil-sujet_1843_1.htm", "doctissimo.fr"),
    ("https://www.jeuxvideo.com/forums/42-51-74201137-1-0-1-0-ballon-d-or-2024.htm", "jeuxvideo.com"),
    ("https://www.doctissimo.fr/fr/forum/x", "doctissimo.fr"),  # first after a language code
    ("https://www.example.es/es-es/foros/x", "example.es"),
    ("https://www.example.fr/forum-sante/x", "example.fr"),
    ("https://example.org/discussions/42", "example.org"),  # the site itself, no www
    ("https://www.avforums.com/threads/tv-question.2400000/", "avforums.com"),
    ("https://www.bogleheads.org/forum/viewtopic.php?t=300000", "bogleheads.org"),
    ("https://www.example.com/board/showthread.php?t=1", "example.com"),  # an engine's thread page anywhere
    ("https://www.example.cn/bbs/viewthread.php?tid=7", "example.cn"),
    ("https://www.simplemachines.org/community/index.php?topic=1.0", "simplemachines.org"),
    ("https://www.example.com/smf/index.php?action=x;topic=9.0", "example.com"),
])
def test_forum_paths_of_any_site_are_user_pages(url: str, site: str) -> None:
    assert match_platform(url) == HostedMatch(site, None, "forum", False)


@pytest.mark.parametrize("url", [
    "https://www.doctissimo.fr/sante/forum/x",  # not the first segment: a page about a forum
    "https://ec.europa.eu/info/consultations/forum/x",
    "https://www.example.fr/sante/fr/forum/x",
    "https://www.python.org/community/forums/",  # community: a site's own page as often as its users'
    "https://www.example.com/forumula/x", "https://www.example.com/forum.html",
    "https://www.example.com/index.php?page=topic", "https://www.example.com/index.php#topic=1",
    "https://www.example.com/?topic=1",
])
def test_forum_words_elsewhere_in_the_path_are_not(url: str) -> None:
    assert match_platform(url) is None


def test_the_hosted_tier_answers_for_a_forum_path_and_the_site_keeps_its_own_pages() -> None:
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.types import candidates_from

    thread, article = ("https://www.doctissimo.fr/forum/environnement/ciel-rouge-coucher-soleil-sujet_1843_1.htm",
                       "https://www.doctissimo.fr/sante/article")
    sub_domain, deeper = "https://forum.doctissimo.fr/sante/x-sujet_1.htm", "https://www.doctissimo.fr/sante/forum/x"
    got = load_scorer(ScorerSettings()).score(candidates_from([thread, sub_domain, article, deeper]))
    note = "user content (forum) on doctissimo.fr: the platform's authority is not the page's"
    assert [(d.tier, d.authority, d.note) for d in got[:2]] == [("hosted", 0.4, note)] * 2  # one rule, one note
    assert [d.tier for d in got[2:]] == ["table", "table"]
    assert got[2].authority == got[3].authority == pytest.approx(0.8445678, abs=1e-6)  # doctissimo.fr's own


def test_a_table_platform_keeps_its_own_rules_for_a_forum_name() -> None:
    assert match_platform("https://community.medium.com/x") == HostedMatch("medium.com", None, "blog", True)


@pytest.mark.parametrize("url", ["https://support.google.com/x", "https://www.nih.gov/", "nih.gov",
                                 "not a url", "https://www.google.com/search?q=x", ""])
def test_not_on_a_platform(url: str) -> None:
    assert match_platform(url) is None


def test_url_path() -> None:
    assert url_path("https://Medium.com/@John/Post?x=1#y") == "/@john/post"
    assert url_path("medium.com") == "/"
    assert url_path("medium.com/@a") == "/@a"
    assert url_path("https://a.com?x=/y") == "/"  # a query is not a path


def test_shipped_file_is_valid_and_covers_the_issue_platforms() -> None:
    idx = default_platforms()
    for p in ("wordpress.com", "tumblr.com", "substack.com", "wixsite.com", "weebly.com", "medium.com", "github.com",
              "google.com", "youtube.com", "facebook.com", "x.com", "twitter.com", "instagram.com", "tiktok.com",
              "reddit.com", "quora.com", "linkedin.com", "pinterest.com", "scribd.com", "slideshare.net"):
        assert p in idx.platforms, p


@pytest.mark.parametrize("text,match", [
    ("platform,host,owner_at,prefix,content_type,official\na.com,*,everywhere,,blog,\n", "owner_at must be one of"),
    ("platform,host,owner_at,prefix,content_type,official\na.com,*,path,x,blog,\n", "needs a prefix starting with '/'"),
    ("platform,host,owner_at,prefix,content_type,official\na.com,*,subdomain,,podcast,\n", "content_type must be one of"),
    ("platform,host\na.com,*\n", "missing a column"),
])
def test_bad_rules_name_the_row(text: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match) as info:
        parse_rules(text, "mine.csv")
    assert "mine.csv: row 2" in str(info.value)


def test_custom_index() -> None:
    idx = PlatformIndex(parse_rules("platform,host,owner_at,prefix,content_type,official\n"
                                    "hostly.net,*,subdomain,,site,team\nhostly.net,hostly.net,path,/~,site,\n"))
    assert idx.match("https://ann.hostly.net/").owner == "ann.hostly.net"  # type: ignore[union-attr]
    assert idx.match("https://team.hostly.net/").official  # type: ignore[union-attr]
    assert idx.match("https://hostly.net/~bob/page").owner == "hostly.net/~bob"  # type: ignore[union-attr]
    assert idx.match("https://hostly.net/pricing").official  # type: ignore[union-attr]


@pytest.mark.parametrize("url,why", [
    ("https://site77.example.com/", "RFC 2606 reserved example name (example.com)"),
    ("unknown-clinic.example.org", "RFC 2606 reserved example name (example.org)"),
    ("http://example.net", "RFC 2606 reserved example name (example.net)"),
    ("clinic.test", "RFC 2606 reserved TLD for testing (.test)"),
    ("https://a.b.invalid/x", "RFC 2606 reserved TLD for invalid names (.invalid)"),
    ("http://foo.localhost:3000/", "RFC 6761 loopback name (.localhost)"),
    ("localhost", "RFC 6761 loopback name (localhost)"),
    ("printer.local", "RFC 6762 multicast-DNS local name (.local)"),
    ("docs.example", "RFC 2606 reserved TLD (.example)"),
    ("http://10.0.0.1/a", "IP address literal (10.0.0.1), not a registered name"),
    ("http://[2001:db8::1]:8080/", "IP address literal (2001:db8::1), not a registered name"),
    ("nas.home.arpa", "RFC 8375 home network name (.home.arpa)"),
    # read as browsers read them (the WHATWG host parser), not by splitting text
    ("http://0x7f000001/", "IP address literal (127.0.0.1), not a registered name"),
    ("http://3232235777/x", "IP address literal (192.168.1.1), not a registered name"),
    ("http://clin\tic.te\nst/", "RFC 2606 reserved TLD for testing (.test)"),
])
def test_special_names(url: str, why: str) -> None:
    assert special_host(url) == why


@pytest.mark.parametrize("url", ["nih.gov", "https://www.example-clinic.com/", "https://examples.com",
                                 "https://1800flowers.com/", "https://testing.org", "", "not a url"])
def test_ordinary_names(url: str) -> None:
    assert special_host(url) is None


def test_host_of_and_precheck() -> None:
    assert host_of("HTTP://user@Printer.Local:631/queue") == "printer.local"
    assert host_of("https://evil.com\\@nih.gov") == "evil.com"
    assert host_of("ftp://clinic.test/") == ""  # other schemes have no web host
    assert [maybe_special(d) for d in ("nih.gov", "example.org", None, "10.0.0.1", "x.home.arpa")] == [
        False, True, True, True, True]


def test_allow_list_can_name_an_owner_on_a_platform() -> None:
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.rerankers.authority import AuthorityReranker
    from authorag.rerankers.domain_lists import DomainList
    from authorag.types import Candidate

    dl = DomainList.compile(["medium.com/@nytimes", "https://github.com/psf/"])
    assert [dl.matches_candidate(Candidate.create(u)) for u in (
        "https://medium.com/@nytimes/a-story", "https://medium.com/@nytimes", "https://medium.com/@nytimesfan/x",
        "https://medium.com/@someone/x", "https://github.com/psf/requests", "https://www.github.com/psf")] == [
        True, True, False, False, True, True]
    rr = AuthorityReranker(load_scorer(ScorerSettings()), allow=("medium.com/@nytimes",), normalize="none",
                           weight=0.5)
    ranking = rr.rerank("q", [Candidate.create("https://medium.com/@someone/x", scores={"relevance": 0.9}),
                              Candidate.create("https://medium.com/@nytimes/y", scores={"relevance": 0.5})])
    assert [c.url for c in ranking] == ["https://medium.com/@nytimes/y", "https://medium.com/@someone/x"]
    assert [c.authority.tier for c in ranking] == ["hosted", "hosted"]  # type: ignore[union-attr]
    assert ranking.candidates[0].scores["authority"] == 1.0 and ranking.candidates[1].scores["authority"] == 0.4


def test_language_editions_of_a_platform_host_are_scored_as_the_host() -> None:
    from authorag.compose import load_scorer
    from authorag.trust import trust_rule_for
    from authorag.types import Candidate

    rule = trust_rule_for(0.3)
    urls = ["https://fr.quora.com/Comment-x", "https://www.quora.com/Why-x", "https://es.answers.yahoo.com/question/index?qid=1"]
    details = load_scorer().score([Candidate.create(u) for u in urls])
    assert [d.tier for d in details] == ["hosted", "hosted", "hosted"]
    assert [rule.value(d) for d in details] == pytest.approx([0.35, 0.35, 0.35])
    assert details[0].note == "user content (qa) on quora.com: the platform's authority is not the page's"


@pytest.mark.parametrize("host,edition", [
    ("fr.quora.com", "quora.com"), ("pt-br.quora.com", "quora.com"), ("es.answers.yahoo.com", "answers.yahoo.com"),
    ("quora.com", "quora.com"), ("answers.yahoo.com", "answers.yahoo.com"), ("forum.example.fr", "forum.example.fr"),
    ("abc.quora.com", "abc.quora.com"), ("fr.com", "fr.com"),
])
def test_language_edition(host: str, edition: str) -> None:
    from authorag.platforms import language_edition

    assert language_edition(host) == edition
