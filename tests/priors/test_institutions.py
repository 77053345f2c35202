"""The institution and outlet sources: values, the ownership cap, leave-source-out names."""
from __future__ import annotations

from importlib import resources

import pytest

from authorag.priors.institutions import OWNERSHIP_CAP
from authorag.priors.sources import load_source, sources_derived_from
from authorag.priors.table import load_prior
from authorag.types import AuthorityDetail


@pytest.mark.parametrize(("source", "key", "value", "raw"), [
    ("universities", "fho.edu.br", OWNERSHIP_CAP, "BR"),
    ("government", "usps.com", OWNERSHIP_CAP, "Federal"),
    ("decodex", "lefigaro.fr", 0.8, 4.0),
    ("decodex", "buzzdemois.com", 0.1, 2.0),
    ("legitphish", "alertadminbos.weebly.com", 0.05, "phishing"),
    ("predatory", "rapidintellect.com", 0.1, "journal"),
    ("hijacked", "jokulljournal.com", 0.05, "hijacked journal"),
    ("reference", "docs.python.org", 0.8, "official docs"),
    ("reference", "arxiv.org", 0.7, "preprints"),
    ("reference", "tagesschau.de", 0.8, "public broadcaster"),
    ("reference", "maldita.es", 0.8, "fact-checker"),
    ("reference", "verbraucherzentrale.de", 0.8, "consumer organisation"),
    ("reference", "cnmv.es", 0.8, "financial supervisor"),
    ("reference", "dwd.de", 0.8, "weather service"),
    ("reference", "notariado.org", 0.8, "professional body"),
    ("reference", "gesundheitsinformation.de", 0.8, "research institute"),
    ("reference", "sepe.es", 0.8, "national agency"),
    ("reference", "lba.de", 0.8, "national agency"),
    ("reference", "mieterbund.de", 0.75, "housing association"),
    ("reference", "adac.de", 0.75, "automobile club"),
    ("reference", "ccoo.es", 0.7, "trade union"),
    ("reference", "barmer.de", 0.75, "health insurer"),
    ("reference", "krebshilfe.de", 0.8, "patient charity"),
    ("reference", "croix-rouge.fr", 0.8, "red cross"),
    ("reference", "bundesarchiv.de", 0.8, "museum or archive"),
    ("reference", "charite.de", 0.8, "university hospital"),
    ("reference", "www.cci.fr", 0.75, "chamber"),
    ("reference", "autoritedelaconcurrence.fr", 0.8, "national agency"),
    ("reference", "citizensadvice.org.uk", 0.8, "public information"),
    ("reference", "comunidad.madrid", 0.7, "regional government"),
    ("reference", "bger.ch", 0.8, "parliament or court"),
    ("reference", "ams.at", 0.8, "national agency"),
    ("reference", "fundeu.es", 0.8, "reference"),
    ("reference", "stiftung-warentest.de", 0.8, "consumer organisation"),
    ("reference", "kbv.de", 0.8, "professional body"),
    ("reference", "landwirtschaftskammer.de", 0.75, "public information"),
    ("reference", "zew.de", 0.8, "research institute"),
    ("reference", "vidal.fr", 0.8, "reference"),
    ("reference", "cun.es", 0.8, "university hospital"),
    ("reference", "anwaltverein.de", 0.8, "professional body"),
    ("reference", "finanztip.de", 0.7, "consumer organisation"),
    ("reference", "quarks.de", 0.7, "public broadcaster"),
    ("reference", "spektrum.de", 0.7, "journal"),
    ("reference", "herodote.net", 0.75, "reference"),
    ("reference", "yadvashem.org", 0.75, "museum or archive"),
    ("reference", "netdoktor.de", 0.65, "reference"),
    ("reference", "fastapi.tiangolo.com", 0.8, "official docs"),
    ("reference", "spain.info", 0.7, "tourism board"),
    ("reference", "bahn.de", 0.7, "transport operator"),
    ("reference", "dosb.de", 0.75, "sports federation"),
    ("reference", "thuisarts.nl", 0.8, "public information"),
    ("reference", "cnr.it", 0.8, "research institute"),
    ("reference", "stf.jus.br", 0.8, "parliament or court"),
    ("reference", "statbel.fgov.be", 0.8, "national agency"),
    ("reference", "cp.pt", 0.7, "transport operator"),
])
def test_source_values(source: str, key: str, value: float, raw: object) -> None:
    sv = load_source(source)[key]
    assert (sv.value, sv.raw) == (pytest.approx(value), raw)


def test_a_doc_site_on_its_authors_domain_is_rated_as_a_host() -> None:
    prior = load_prior()
    assert [s.name for s in prior.lookup("fastapi.tiangolo.com").credibility_sources] == ["reference"]
    assert [s.name for s in prior.lookup("tiangolo.com").credibility_sources] == []


def test_ownership_is_capped_and_platforms_are_not_rated() -> None:
    assert max(sv.value for sv in load_source("universities").values()) == OWNERSHIP_CAP
    assert max(sv.value for sv in load_source("government").values()) == OWNERSHIP_CAP
    for platform in ("reddit.com", "youtube.com", "wikihow.com"):
        assert platform not in load_source("decodex")
    assert "sputniknews.com" not in load_source("wikiproject")  # the perennial source rates it


def test_leave_source_out_names_and_the_decodex_notice() -> None:
    assert sources_derived_from(["decodex"]) == ("decodex",)
    assert sources_derived_from(["wikiproject", "predatory", "legitphish"]) == ("wikiproject", "legitphish", "predatory")
    without = load_prior(exclude=["decodex", "wikiproject"])
    assert [s.name for s in without.lookup("lefigaro.fr").credibility_sources] == []
    notice = resources.files("authorag.data").joinpath("decodex.NOTICE.txt").read_text(encoding="utf-8")
    assert "Open Database License 1.0" in notice


def test_phishing_host_on_a_platform_is_below_unknown() -> None:
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.trust import DEFAULT_TRUST_RULE
    from authorag.types import candidates_from

    d = load_scorer(ScorerSettings()).score(candidates_from(["https://alertadminbos.weebly.com/"]))[0]
    assert DEFAULT_TRUST_RULE.of(d).reason == "low credibility"
    assert DEFAULT_TRUST_RULE.value(d) == pytest.approx(0.3 * 0.9 * 0.05 / 0.35)


def test_hijacked_clones_are_below_unknown_and_their_journals_are_not_listed() -> None:
    from authorag.trust import DEFAULT_TRUST_RULE

    prior = load_prior()
    clone = prior.lookup("http://www.jokulljournal.com/")
    assert [s.name for s in clone.credibility_sources] == ["hijacked"]
    assert DEFAULT_TRUST_RULE.of(clone).reason == "low credibility"
    assert "jokulljournal.is" not in load_source("hijacked")  # the authentic journal
    assert load_prior(exclude=["hijacked"]).lookup("http://www.jokulljournal.com/").tier == "unknown"
    assert sources_derived_from(["hijacked"]) == ("hijacked",)


def test_phishing_pages_on_services_do_not_mark_the_service() -> None:
    phishing = load_source("legitphish")
    assert [h for h in ("docs.google.com", "github.com", "www.dropbox.com", "drive.google.com") if h in phishing] == []
    assert phishing["alertadminbos.weebly.com"].value == pytest.approx(0.05)  # a user's site on a platform


def test_public_broadcasters_and_fact_checkers_are_credible_in_the_default() -> None:
    from authorag.compose import load_scorer
    from authorag.trust import trust_rule_for
    from authorag.types import Candidate

    rule = trust_rule_for(0.3)
    urls = ["https://www.tagesschau.de/inland/x", "https://www.rtve.es/noticias/x", "https://maldita.es/malditobulo/x"]
    values = [rule.of(d) for d in load_scorer().score([Candidate.create(u) for u in urls])]
    assert [v.reason for v in values] == ["credible", "credible", "credible"]
    assert [round(v.value, 3) for v in values] == [0.761, 0.76, 0.639]


def test_reference_works_rate_each_domain_once() -> None:
    import csv

    text = resources.files("authorag.data").joinpath("reference_works.csv").read_text(encoding="utf-8")
    domains = [row["domain"] for row in csv.DictReader(text.splitlines())]
    assert sorted({d for d in domains if domains.count(d) > 1}) == []
    assert len(domains) == len(load_source("reference"))


def test_institutions_that_inform_the_public_are_credible_in_the_default() -> None:
    from authorag.compose import load_scorer
    from authorag.trust import trust_rule_for
    from authorag.types import Candidate

    rule = trust_rule_for(0.3)
    urls = ["https://www.verbraucherzentrale.de/wissen/x", "https://www.agenciatributaria.es/x",
            "https://www.dkfz.de/x", "https://www.bafin.de/x"]
    values = [rule.of(d) for d in load_scorer().score([Candidate.create(u) for u in urls])]
    assert [v.reason for v in values] == ["credible"] * 4
    assert [round(v.value, 3) for v in values] == [0.748, 0.639, 0.639, 0.737]


def test_russian_arab_indian_polish_and_turkish_public_bodies_are_credible_in_the_default() -> None:
    urls = ["https://www.gosuslugi.ru/help", "https://minzdrav.gov.ru/x", "https://www.cikrf.ru/analog/",
            "https://cbr.ru/x", "https://u.ae/ar/x", "https://moh.gov.jo/x", "https://ncert.nic.in/x",
            "https://rbi.org.in/x", "https://nbp.pl/x", "https://cert.pl/posts/x", "https://www.bddk.org.tr/x",
            "https://xaydungchinhsach.chinhphu.vn/x", "https://moet.gov.vn/x", "https://my.gov.ir/x", "https://www.cbi.ir/x",
            "https://www.bb.org.bd/x"]
    _credible_at_the_national_rules_value(urls)


def test_swedish_czech_greek_romanian_hungarian_and_ukrainian_public_bodies_are_credible() -> None:
    urls = ["https://www.skatteverket.se/privat/x", "https://www.forsakringskassan.se/x", "https://www.cnb.cz/cs/x",
            "https://portal.gov.cz/sluzby-vs/x", "https://www.aade.gr/x", "https://www.statistics.gr/x",
            "https://www.anaf.ro/x", "https://insp.gov.ro/x", "https://www.ksh.hu/x", "https://nav.gov.hu/ado/x",
            "https://suspilne.media/x", "https://www.kormany.hu/x"]
    details = _credible_at_the_national_rules_value(urls)
    # a government sub-domain is not a look-alike of another country's body of the same name
    assert [d.note for d in details if "look-alike" in (d.note or "")] == []


def test_korean_japanese_chinese_and_taiwanese_public_bodies_are_credible() -> None:
    from authorag.compose import load_scorer
    from authorag.types import Candidate

    urls = ["https://www.kisa.or.kr/x", "https://www.bok.or.kr/x", "https://www.nhis.or.kr/x", "https://www.korea.kr/x",
            "https://www.jpcert.or.jp/x", "https://www.jaxa.jp/x", "https://www.chinacdc.cn/x", "https://www.cas.cn/x",
            "https://www.pts.org.tw/x"]
    _credible_at_the_national_rules_value(urls)
    # research-institute and local-government names whose registration is restricted
    hosts = ["kasi.re.kr", "ioz.ac.cn", "www.edu.tw", "city.yokohama.lg.jp"]
    details = load_scorer().score([Candidate.create(f"https://{h}/x") for h in hosts])
    assert [d.credibility for d in details] == [0.75, 0.75, 0.75, 0.8]


def test_a_publishers_rating_stays_when_only_its_forum_host_is_a_platform() -> None:
    from authorag.compose import load_scorer
    from authorag.platforms import default_platforms
    from authorag.types import Candidate

    users = default_platforms().user_domains
    assert {"reddit.com", "mumsnet.com", "quora.com"} <= users
    assert not {"yomiuri.co.jp", "naver.com", "baidu.com", "yahoo.co.jp"} & users
    details = load_scorer().score([Candidate.create(u) for u in (
        "https://komachi.yomiuri.co.jp/topics/id/1098765", "https://www.yomiuri.co.jp/national/x",
        "https://detail.chiebukuro.yahoo.co.jp/qa/question_detail/q1", "https://www.baidu.com/")])
    assert [d.tier for d in details] == ["hosted", "table", "hosted", "table"]
    assert details[3].credibility == 0.35  # Wikipedia's rating of baidu.com is kept


def test_finnish_danish_and_norwegian_public_bodies_are_credible() -> None:
    urls = ["https://www.vero.fi/x", "https://www.kela.fi/x", "https://www.suomi.fi/x", "https://www.skat.dk/x",
            "https://www.borger.dk/x", "https://www.sundhed.dk/x", "https://www.nav.no/x", "https://www.skatteetaten.no/x",
            "https://lovdata.no/x"]
    _credible_at_the_national_rules_value(urls)


def _credible_at_the_national_rules_value(urls: list[str]) -> list[AuthorityDetail]:
    """Score ``urls`` with the default scorer and check each is credible at the national rule's 0.8."""
    from authorag.compose import load_scorer
    from authorag.trust import trust_rule_for
    from authorag.types import Candidate

    rule = trust_rule_for(0.3)
    details = load_scorer().score([Candidate.create(u) for u in urls])
    assert [rule.of(d).reason for d in details] == ["credible"] * len(urls)
    assert [d.credibility for d in details] == [0.8] * len(urls)
    return details
