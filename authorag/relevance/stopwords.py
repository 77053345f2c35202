"""Stop words per language that lexical relevance drops (:data:`STOPWORDS`, :func:`stopwords_for`):
short lists of function and question words written for authorag, no content word such as "Impfung".

Each list is spelled as :func:`~authorag.relevance.tokens.tokenize` spells its tokens (case-folded,
so a Greek final ς is σ), and a language may add another common spelling of its words
(:data:`_SPELLED_VARIANTS`: Greek without accents, Romanian with the cedilla letters).

Example:
    >>> sorted(stopwords_for("el") & {"πώσ", "πωσ", "δηλωσ"}), sorted(stopwords_for("ro") & {"şi", "și"})
    (['πωσ', 'πώσ'], ['şi', 'și'])
"""
from __future__ import annotations

from collections.abc import Callable

from authorag.relevance.tokens import ENGLISH_STOPWORDS, fold, tokenize

_STOPWORDS_TEXT = {
    "de": """aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei
        bin bis bist da damit dann das dass dein deine dem den denn der des dessen die dies diese
        diesem diesen dieser dieses doch dort du durch ein eine einem einen einer eines er es etwas
        euch euer für gegen hab habe haben hat hatte hier hin hinter ich ihm ihn ihnen ihr ihre im
        in ins ist ja jede jedem jeden jeder jedes jetzt kann kein keine man manche mein meine mich
        mir mit muss nach nicht nichts noch nun nur ob oder ohne sehr sein seine sich sie sind so
        soll sollte sondern um und uns unser unter vom von vor war waren warum was weil welche
        welchem welchen welcher welches wenn wer werde werden wie wir wird wo zu zum zur über
        während seit gegenüber bevor nachdem
        seid sei seien wäre wären gewesen hast habt hatten hattest hätte hätten gehabt
        wurde wurden wurdest worden
        beim ans aufs fürs ums übers durchs vors hinters unters
        wann wieso weshalb wozu woher wohin womit wofür worauf worüber wovon wieviel wieviele""",
    "es": """a al algo algunas algunos ante antes como con contra cual cuales cuando de del desde
        donde durante e el ella ellas ellos en entre era es esa esas ese eso esos esta estas este
        esto estos fue fueron ha han hasta hay la las le les lo los me mi mis muy más nada ni no
        nos nosotros o os otra otras otro otros para pero poco por porque que qué quien quién se
        sea ser si sin sobre son su sus también tan te tiene tienen todo todos tu tus un una unas
        uno unos y ya yo él cómo cuál cuándo dónde tras hacia según mientras
        soy eres somos eras éramos erais eran fui fuiste fuimos será serán sería serían sido siendo
        estoy estás está estamos estáis están estaba estaban estuvo estar he has hemos habéis
        había habían hubo habido haber
        cuánto cuánta cuántos cuántas cuanto cuanta cuantos cuantas""",
    "fr": """a afin ai au aux avec avoir c ce ces cet cette comme comment d dans de des donc du elle
        elles en est et eux il ils j je l la le les leur leurs lui m ma mais me mes moi mon n ne
        nos notre nous on ont ou où par pas peut pour pourquoi qu quand que quel quelle quels
        quelles qui s sa sans se ses si son sont sur t ta te tes toi ton tous tout tu un une vos
        votre vous y à été être pendant durant avant après chez depuis entre vers sous contre
        suis es sommes êtes étais était étions étiez étaient fus fut furent sera seront serait
        seraient sois soit soient as avons avez avais avait avions aviez avaient eu eut aura auront
        aurait auraient étant ayant
        combien quoi lequel laquelle lesquels lesquelles dont ceci cela ça""",
    "it": """a ad al allo alla ai agli alle anche che chi ci come con contro cui da dal dallo dalla
        dai dagli dalle dei degli delle del dello della di dove e ed egli ella essa esse essi esso
        fra gli ha hanno ho i il in io l la le lei li lo loro lui ma mi mia mie miei mio ne negli
        nel nello nella nei nelle noi non o per perché però più quale quali quando quanto quanta
        quanti quante quello quella quelli quelle questo questa questi queste se si sia siamo
        siete sono su sul sullo sulla sui sugli sulle suo sua suoi sue ti tra tu tuo tua tuoi tue
        un uno una vi voi è era erano essere stato stata stati state sarà sarebbe abbiamo
        avete avere aveva avevano abbia cosa dopo prima durante verso presso
        d c dell all nell sull dall quell quest""",
    "pt": """a ao aos as à às com como contra da das de dela dele deles delas do dos e ela elas ele
        eles em entre era eram essa essas esse esses esta estas este estes eu foi foram há isso
        isto já lhe lhes mais mas me mesmo meu meus minha minhas muito na nas nem no nos nós o os
        ou para pela pelas pelo pelos por porque porquê qual quais quando quanto quanta quantos
        quantas que quem se sem ser seu seus sua suas são também te tem têm teu tua um uma umas
        uns você vocês vos é está estão estava sido sendo ter tinha tinham será seria pode posso
        podem onde após antes durante sobre até desde""",
    "nl": """aan al als bij dan dat de der deze die dit door een en er had heb hebben heeft het hij
        hoe hun ik in is je jij jou jouw kan kunnen maar me met mijn na naar niet nog of om omdat
        ons onze ook op over te tegen toch tot u uit uw van veel voor waar waarom wanneer wat
        welk welke wie wij wil worden wordt werd werden was waren ze zich zij zijn zo zou zouden
        moet moeten mag mogen hem haar hen ben bent geweest hoeveel hoelang tussen zonder tijdens
        sinds binnen""",
    "ru": """а без бы был была были было быть в вам вас во вот все всё вы где да для до его её ее если есть
        же за и из или им их к как какая какие каким какой кем ко когда кого кто ли либо меня мне мной
        мы на над не нет ни но о об он она они оно от по под при про с со так также там то тот ту ты у
        уже чем через что чтобы чей чья чьё это эта эти этого этой этом этот этих я сколько почему
        зачем куда откуда ещё еще будет будут является являются""",
    "ar": """في من إلى الى على عن مع هل ما ماذا كيف متى أين اين لماذا كم أي اي هذا هذه ذلك تلك هؤلاء هو هي
        هم هن أنا انا نحن أنت انت أنتم انتم الذي التي الذين اللذان اللتان و أو او ثم لا لم لن قد
        كان كانت يكون تكون كانوا بين عند حتى إذا اذا إن ان أن لكن بل بعد قبل كل بعض غير أيضا ايضا
        منذ خلال حول ضد لدى لـ ب ف به بها له لها لهم فيه فيها منه منها عليه عليها إليه اليه""",
    "hi": """का की के को में से पर और या है हैं था थी थे हो होता होती होते होना होने हुआ हुई हुए ने कि यह
        वह ये वे इस उस इन उन जो तो भी ही न नहीं ना क्या कैसे क्यों कब कहाँ कहां कितना कितनी कितने कौन
        किस किसे किसी लिए तक एक साथ बाद पहले द्वारा वाला वाली वाले अपना अपनी अपने मैं मुझे हम आप तुम
        मेरा मेरी मेरे हमारा हमारी हमारे आपका आपकी आपके कर करें करना करने करते करता करती किया किए
        सकता सकती सकते चाहिए""",
    "tr": """acaba ama ancak bana bazı ben beni benim bir biz bu bunu bunun bunlar çok da daha de değil diye en
        gibi göre hangi hem her hiç için ile ise kadar kaç ki kim mi mı mu mü midir mıdır mudur müdür
        nasıl ne neden nerede nereye niçin niye o ona onu onun onlar olan olarak olur oldu olduğu olmak
        sen siz şu şey ve veya ya yani var yok""",
    "pl": """a aby albo ale bo by być był była było były będzie będą ci co czego czy dla do gdy gdzie go i ich ile
        ja jak jaka jaki jakie jakiego jako je jego jej jest jeśli jeżeli już każdy kiedy kto która które
        który którego lub ma mi mnie może można my na nad nie nim o od oraz po pod przez przy się są ta
        tak także te tego tej ten to tu ty tym u w we wy z za ze że żeby dlaczego czemu też tylko""",
    "id": """ada adalah agar akan aku anda apa apakah atau bagaimana bagi bahwa belum berapa bisa bukan dalam
        dan dapat dari dengan di dia harus hingga ia ini itu jika juga kalau kami kamu kapan karena ke
        kenapa kita mana masih mengapa mereka oleh pada para saja sampai saya sebagai sebelum sedang
        sejak seperti setelah siapa sudah supaya telah tentang tersebut tidak untuk yang""",
    "fa": """و در به از که این آن را با است هست نیست برای یک تا هم بر یا اما ولی اگر هر چه چرا چطور چگونه کجا
        کی کدام چند چقدر آیا می نمی بود بودن شد شود شده باشد باید ها های ای او ما شما آنها ایشان من تو
        خود بی پس وقتی کرد کند کنم کنیم کنند کرده کردن همه دیگر چون زیرا ام ایم اید اند""",
    "sv": """alla allt andra att av bara blev blir bli de dem den denna deras dess detta det dig din dina ditt du
        där efter eftersom eller en ett från för ha hade han hans har hennes henne hon honom hur här i
        inom inte jag kan kunde man med mellan men mig min mina mitt måste ni och om oss på sedan sig
        sin sina sitt ska skall skulle som till under upp ut utan vad var vara varför vart varit vem
        vi vid vilka vilken vilket när nu också än är åt över får fick bör kommer hos mot enligt
        hurdan hurdant hurdana många mycket gör göra gjorde gjort""",
    "cs": """a aby ale ani až bez by byl byla byli bylo být co či do i jak jaká jaké jaký jakou jako je jeho
        její jejich jen jenž ji jí jsem jsi jsme jste jsou k ke kde kdo kdy kdyby když kolik která které
        který kteří kterou mají mám má mě mi mít mně mnou mohu může můžu můžete mohou musí musím my na
        nad ne nebo než o od ode po pod pro proč před při s se si tak také tam to ten ta ti tu ty tím
        u v ve vy z za ze že lze nějaký nějaká nějaké dělat udělat dělám udělám""",
    "el": """ο η το οι τα του της των τον την στο στη στην στον στα στους στις σε με για από και ή να θα δεν
        μη μην που πού πως πώς τι ποιος ποια ποιο ποιοι ποιες ποιου ποιας πότε πόσο πόσα πόσοι πόσες
        γιατί είναι ήταν είμαι είσαι είμαστε έχει έχω έχουμε έχουν μπορώ μπορεί μπορούμε μπορούν πρέπει ένα
        μια μία ένας ενός μιας αν όταν ως κατά μετά πριν μέχρι έως αυτό αυτή αυτός αυτά αυτοί αυτές
        μου σου μας σας τους εγώ εσύ εμείς εσείς ότι αλλά επίσης ούτε οποίος οποία οποίο τη στων
        κάνω κάνεις κάνει κάνουμε κάνετε κάνουν κάνουνε""",
    "ro": """a al ale am ai are au avea acest această aceasta acestea aceste acel acea ca că care cât câte câți
        cum când ce cel cea cei cele cu da de deci din după este e era eu fi fie fost i în îi îmi își
        la le li lor lui mai mă ne nici nu o ori pe pentru poate pot prin să se sau și sunt sînt te tu
        un una unei unui unor va vor voi noi el ea ei ele dacă unde până spre fără despre între
        trebuie cine cui fac faci face facem faceți faceti""",
    "hu": """a az egy és vagy de hogy nem is meg már még csak mint ha van volt lesz vannak voltak kell lehet
        mi mit mikor hol hova hová honnan hogyan miért milyen melyik mennyi mennyit mennyibe ki kit
        kinek kik én te ő ti ők ez ezt azt ezek azok itt ott be el fel le után előtt alatt felett
        között nélkül szerint miatt számára által való lett sem pedig illetve valamint kb hány hányan
        nekem neked neki nekünk nektek nekik""",
    "fi": """ja tai mutta että kun jos koska vaikka kuin niin myös sekä eli ei en et emme ette eivät olla olen
        olet on olemme olette ovat oli olivat ollut olisi ole onko oliko voi voin voiko voinko saa saako
        saanko pitää pitääkö täytyy täytyykö mikä mitä mihin missä mistä miten miksi milloin kuka ketkä
        kenen kuinka paljonko montako mille millä minkä minä sinä hän me te he se ne tämä tuo nämä nuo
        sen niiden minun sinun hänen meidän teidän heidän siitä siihen siinä tässä tästä tähän jo
        vielä vain nyt sitten kanssa ilman ennen jälkeen aikana asti alla yli noin tehdä teen teenkö
        minulla sinulla hänellä meillä teillä heillä minulle sinulle hänelle meille teille heille""",
    "da": """og i at det den de en et til af for på med er var har havde som der ikke men om fra ved eller kan
        skal vil ville skulle kunne må måtte være været blev bliver blive jeg du han hun vi dem mig dig
        ham hende os jer min mit mine din dit dine sin sit sine hans hendes deres vores jeres hvad hvem
        hvor hvordan hvorfor hvornår hvilken hvilket hvilke meget mange noget nogen sig også når så
        end efter før under over mod hos uden ind ud op her nu da dog gør gøre gjorde gjort""",
    "no": """og i at det den de en et ei til av for på med er var har hadde som der ikke men om fra ved eller
        kan skal vil ville skulle kunne må måtte være vært ble blir bli jeg du han hun vi dere dem meg
        deg ham henne oss min mitt mine din ditt dine sin sitt sine hans hennes deres vår vårt våre hva
        hvem hvor hvordan hvorfor når hvilken hvilket hvilke mye mange noe noen seg også så enn etter
        før under over mot hos uten inn ut opp her nå da gjør gjøre gjorde gjort""",
}

_CEDILLA = str.maketrans("șțȘȚ", "şţŞŢ")


def _with_cedilla(word: str) -> str:
    """``word`` with the cedilla letters ş and ţ that older keyboards give for Romanian ș and ț."""
    return word.translate(_CEDILLA)


_SPELLED_VARIANTS: dict[str, Callable[[str], str]] = {"el": fold, "ro": _with_cedilla}
"""Stop words also written another common way: Greek without its accents (typed without tonos),
Romanian with the cedilla letters (:func:`_with_cedilla`)."""


def _stopword_set(language: str, text: str) -> frozenset[str]:
    """The stop words of ``text`` as the tokenizer spells them (case-folded: a Greek final ς is σ),
    with the language's other common spelling (:data:`_SPELLED_VARIANTS`)."""
    words = tokenize(text)
    variant = _SPELLED_VARIANTS.get(language)
    return frozenset(words + [variant(w) for w in words]) if variant else frozenset(words)


STOPWORDS: dict[str, frozenset[str]] = {
    "en": ENGLISH_STOPWORDS,
    **{lang: _stopword_set(lang, text) for lang, text in _STOPWORDS_TEXT.items()},
}
"""Stop words per language read (function words only: no content word such as "Impfung")."""


def stopwords_for(language: str) -> frozenset[str]:
    """The stop words dropped in ``language`` (none outside
    :data:`~authorag.relevance.language.LEXICAL_LANGUAGES`)."""
    return STOPWORDS.get(language, frozenset())


__all__ = ["STOPWORDS", "stopwords_for"]
