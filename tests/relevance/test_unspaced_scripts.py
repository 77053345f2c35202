"""Chinese, Japanese, Korean and Thai, written without spaces between words: the tokenizer reads Han,
Hangul and Thai runs as pairs of characters and cuts where the script changes, so BM25, coverage and
keyword stuffing find the question's words in a page. Before, a whole clause was one token, no page
shared one with the question, relevance was equal for every candidate and trust ordered alone: an
off-topic government page ranked first. With the embeddings extra the default's cascade reads
Chinese, Japanese and Korean pages by meaning (multilingual-e5-small) and Thai ones by BM25."""
from __future__ import annotations

import pytest

from authorag.adapters import build_reranker
from authorag.relevance.coverage import coverage_and_stuffing
from authorag.relevance.language import detect_language
from authorag.relevance.tokens import ENGLISH_STOPWORDS, UNSPACED_SCRIPTS, tokenize
from authorag.types import Candidate


def test_han_and_hangul_runs_become_pairs_and_the_script_change_cuts() -> None:
    assert tokenize("1日に何歩歩くのが健康に良いですか") == [
        "1", "日", "に", "何歩", "歩歩", "くのが", "健康", "に", "良", "いですか"]
    assert tokenize("如何申请中国护照？ iPhone 15") == [
        "如何", "何申", "申请", "请中", "中国", "国护", "护照", "iphone", "15"]
    assert tokenize("여권을 발급받으려면") == ["여권", "권을", "발급", "급받", "받으", "으려", "려면"]
    assert tokenize("サプリメントを購入") == ["サプリメント", "を", "購入"]  # Katakana and Hiragana runs whole
    assert tokenize("々") == ["々"]  # a lone character stays itself
    assert tokenize("หนังสือ ๑๒") == tokenize("หนงสือ ๑๒") == ["หน", "นง", "งส", "สอ", "๑๒"]  # marks dropped
    assert UNSPACED_SCRIPTS == ("Han", "Hiragana", "Katakana", "Hangul", "Thai")


def test_other_scripts_are_read_as_before() -> None:
    assert tokenize("Café-au-lait, Straße, Ελλάδα, Москва", ENGLISH_STOPWORDS) == [
        "café", "au", "lait", "strasse", "ελλάδα", "москва"]
    assert tokenize("ພາສາລາວ ຂອງ") == ["ພາສາລາວ", "ຂອງ"]  # Lao is not read in pairs (module doc)


def test_a_page_that_shares_the_questions_words_covers_them() -> None:
    query = "如何办理护照"
    texts = ["办理普通护照，申请人需携带居民身份证原件，到出入境管理机构现场提交申请。",
             "个人所得税年度汇算的办理时间为每年3月1日至6月30日。"]
    cov, stuffed = coverage_and_stuffing(query, texts, detect_language(query, texts).lexical)
    # query pairs: 如何, 何办, 办理, 理护, 护照; the passport page has 办理 and 护照, the tax page 办理
    assert cov == pytest.approx([2 / 5, 1 / 5])
    assert stuffed == [False, False]


POOLS = {
    "zh": ("如何办理护照", [
        ("https://www.chinatax.gov.cn/chinatax/n810341/c5218742/content.html",
         "个人所得税年度汇算的办理时间为每年3月1日至6月30日，纳税人可通过个人所得税App办理。"),
        ("https://www.nia.gov.cn/n741440/n741577/c1467163/content.html",
         "办理普通护照，申请人需携带居民身份证原件，到就近的出入境管理机构现场提交申请，采集指纹和照片，"
         "一般7个工作日内可以领取护照。"),
        ("https://huzhao-daiban-kuai.com/",
         "办理护照 护照办理 加急办理护照 护照 护照 办理 护照代办 最快三天办理护照 联系我们办理护照"),
    ], ["https://www.nia.gov.cn/n741440/n741577/c1467163/content.html", "https://huzhao-daiban-kuai.com/",
        "https://www.chinatax.gov.cn/chinatax/n810341/c5218742/content.html"]),
    "ja": ("1日に何歩歩くのが健康に良いですか", [
        ("https://www.jma.go.jp/jma/kishou/know/yougo_hp/kousui.html",
         "降水量とは、降った雨がどこにも流れ去らずにそのまま溜まった場合の水の深さで、ミリメートルで表します。"),
        ("https://www.mhlw.go.jp/stf/seisakunitsuite/bunya/kenkou_iryou/kenkou/kenkou_zoushin/index.html",
         "厚生労働省は、健康づくりのために1日の歩数の目安を示しています。成人は1日8000歩程度を目標にすることが推奨されています。"),
        ("https://matome-kenko-news.jp/walking-10000",
         "1日1万歩歩かないと病気になる！歩数 歩数 歩数 1万歩 健康 健康 健康 今すぐサプリを購入"),
    ], ["https://www.mhlw.go.jp/stf/seisakunitsuite/bunya/kenkou_iryou/kenkou/kenkou_zoushin/index.html",
        "https://matome-kenko-news.jp/walking-10000", "https://www.jma.go.jp/jma/kishou/know/yougo_hp/kousui.html"]),
    "ko": ("여권 발급 방법", [
        ("https://www.gov.kr/portal/service/serviceInfo/PTR000050463",
         "주민등록표 등본 발급은 정부24에서 온라인으로 신청할 수 있으며 수수료는 무료입니다."),
        ("https://www.passport.go.kr/home/kor/contents.do?menuPos=36",
         "여권을 처음 발급받으려면 신분증과 여권용 사진 1매를 가지고 가까운 여권사무대행기관을 방문하여 신청합니다. "
         "발급에는 보통 일주일 정도 걸립니다."),
    ], ["https://www.passport.go.kr/home/kor/contents.do?menuPos=36",
        "https://www.gov.kr/portal/service/serviceInfo/PTR000050463"]),
    "th": ("ต่ออายุหนังสือเดินทางต้องใช้เอกสารอะไรบ้าง", [
        ("https://www.tmd.go.th/forecast/daily",
         "กรมอุตุนิยมวิทยาพยากรณ์อากาศวันนี้ ฝนตกหนักบางแห่งในภาคใต้ ประชาชนควรติดตามประกาศเตือนภัยและเตรียมเอกสารสำคัญให้พร้อม"),
        ("https://www.passport.go.th/th/renewal",
         "การต่ออายุหนังสือเดินทางต้องยื่นคำร้องด้วยตนเองที่สำนักงานหนังสือเดินทาง "
         "พร้อมบัตรประจำตัวประชาชนตัวจริงและหนังสือเดินทางเล่มเดิม ใช้เวลาประมาณสามวันทำการ"),
    ], ["https://www.passport.go.th/th/renewal", "https://www.tmd.go.th/forecast/daily"]),
}


@pytest.mark.parametrize("language", sorted(POOLS))
@pytest.mark.parametrize("relevance", ["bm25", "cascade-or-bm25"])
def test_the_on_topic_page_leads_and_the_off_topic_one_is_last(language: str, relevance: str) -> None:
    query, pages, expected = POOLS[language]
    reranker, _ = build_reranker(relevance=relevance)
    for order in (pages, pages[::-1]):
        ranking = reranker.rerank_owned(query, [Candidate.create(url, text) for url, text in order])
        assert [c.url for c in ranking.candidates] == expected
        assert detect_language(query).language == language
        note = ranking.provenance["relevance_note"]
        assert f"query language {language!r} is not one lexical relevance reads" in note
        assert "Han, Hangul and Thai read as pairs of characters, no stemming" in note
        if relevance == "cascade-or-bm25" and language == "th":  # no encoder of the cascade reads Thai
            assert f"not the query's language {language!r}: BM25 relevance on pairs of characters instead" in note
        elif relevance == "cascade-or-bm25":  # multilingual-e5-small reads Chinese, Japanese and Korean
            assert f"with multilingual-e5-small, which reads the query's language {language!r}" in note
