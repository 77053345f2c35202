"""The words a look-alike host uses to claim an institution: office, service and country words.

A phishing name puts a trusted name beside words that make the claim: an office (``gov``,
``official``), a service the page pretends to offer (``refund``, ``login``), or a country
(``correos-es``, ``bbc-uk``). :mod:`authorag.priors.lookalike` reads these sets. The service
words are English, Spanish, French, German, Italian, Portuguese and Dutch (written without
accents, as host names carry them); a name in another language makes no service claim this module
can read.
"""
from __future__ import annotations

from authorag.priors.brands import home_country

OFFICE_WORDS = frozenset({"gov", "govt", "gouv", "gob", "int", "official", "officiel", "oficial", "offiziell",
                          "ufficiale", "officieel", "overheid", "mil"})
"""Tokens that claim public office beside any trusted name."""

_SERVICE_EN = {"refund", "refunds", "tax", "taxes", "login", "signin", "verify", "verification", "secure", "security",
               "account", "accounts", "support", "helpdesk", "portal", "claim", "claims", "payment", "payments",
               "pay", "benefit", "benefits", "grant", "grants", "relief", "stimulus", "update", "alert", "alerts",
               "online", "service", "services", "help", "auth", "rebate", "fine", "fines", "penalty", "notice",
               "vaccine", "covid", "parcel", "delivery", "tracking", "pending", "survey", "application",
               "compensation", "complaint"}
_SERVICE_ES = {"devolucion", "devoluciones", "reembolso", "pago", "pagos", "multa", "multas", "cita", "citas",
               "tramite", "tramites", "envio", "envios", "paquete", "entrega", "verificacion", "verificar",
               "cuenta", "acceso", "ayuda", "ayudas", "subsidio", "renta", "impuestos", "notificacion", "aviso",
               "sancion", "deuda", "pendiente", "encuesta", "solicitud", "indemnizacion", "reclamacion",
               "formulario"}
_SERVICE_FR = {"remboursement", "paiement", "amende", "amendes", "compte", "connexion", "aide", "aides", "impots",
               "colis", "livraison", "suivi", "avis", "renouvellement", "dossier", "allocation", "allocations",
               "securise", "attente", "enquete", "demande", "indemnisation", "reclamation", "formulaire"}
_SERVICE_DE = {"erstattung", "rueckerstattung", "ruckerstattung", "zahlung", "konto", "anmeldung", "verifizierung",
               "bestaetigung", "hilfe", "foerderung", "steuer", "steuern", "paket", "sendung", "zustellung",
               "bussgeld", "mahnung", "warnung", "sicherheit", "umfrage", "antrag", "entschaedigung",
               "beschwerde", "formular"}
_SERVICE_IT = {"rimborso", "rimborsi", "pagamento", "pagamenti", "multa", "multe", "accesso", "accedi", "verifica",
               "conto", "assistenza", "aiuto", "pratica", "pratiche", "spedizione", "pacco", "consegna",
               "tracciamento", "avviso", "notifica", "sanzione", "debito", "sondaggio", "richiesta", "modulo",
               "rinnovo", "sicurezza", "agevolazioni", "indennizzo", "reclamo"}
_SERVICE_PT = {"pagamento", "pagamentos", "conta", "acesso", "verificacao", "ajuda", "encomenda", "rastreio",
               "rastreamento", "notificacao", "divida", "pendente", "inquerito", "devolucao", "restituicao",
               "renovacao", "seguranca", "beneficio", "auxilio", "imposto", "impostos", "reclamacao",
               "indemnizacao", "indenizacao"}
_SERVICE_NL = {"teruggave", "terugbetaling", "betaling", "betalen", "boete", "boetes", "inloggen", "verificatie",
               "rekening", "hulp", "toeslag", "toeslagen", "bezorging", "levering", "melding", "aanvraag",
               "formulier", "verlenging", "vernieuwen", "beveiliging", "schadevergoeding", "klacht", "aanmaning",
               "herinnering"}
SERVICE_WORDS = frozenset(_SERVICE_EN | _SERVICE_ES | _SERVICE_FR | _SERVICE_DE | _SERVICE_IT | _SERVICE_PT
                          | _SERVICE_NL)
"""Tokens of the services a phishing page pretends to offer (beside an institution's name)."""

NOT_BRANDS = OFFICE_WORDS | {"www", "web", "home", "mail", "info", "news", "online", "service", "services"}
"""Labels that name no one (``www.nhs.uk`` is a registrable domain whose label is ``www``)."""

COUNTRY_CODES = frozenset(
    "ad ae af ag ai al ao ar au aw ax az ba bb bd bf bg bh bi bj bm bn bo br bs bt bw bz ca cd cf cg ch ci "
    "cl cm cn co cr cu cv cw cy cz de dj dk dm dz ec ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gh "
    "gi gl gm gn gp gq gr gt gu gw gy hk hn hr ht hu ie il iq ir je jm jo jp ke kg kh ki km kn kp kr kw ky "
    "kz la lb lc li lk lr ls lt lu lv ly ma mc md mg mk ml mm mn mo mq mr mt mu mv mw mx mz nc ne ng ni nl "
    "np nz om pa pe pf pg ph pk pl pr ps pt pw py qa ro rs ru rw sa sb sc sd se sg si sk sl sm sn sr ss sv "
    "sy sz td tg th tj tl tm tn tr tt tw tz ua ug uk uy uz va vc ve vn vu ws ye za zm zw".split())
"""Country codes a name may put beside a brand (ISO 3166 and ``uk``), without the ones that are
also common English words (``in``, ``to``, ``me``, ``my``, ``us``, ``it``...): those count only as
the imitated domain's own country."""

GENERIC_CODES = frozenset({"ai", "cc", "co", "fm", "gg", "io", "la", "ly", "me", "to", "tv", "ws"})
"""Country-code top-level domains sold and used as generic names (``paypal.me``, ``github.io``):
a domain under one has no home country."""

_US = frozenset({"us", "usa", "america", "usgov"})
MIN_SERVICE_BRAND_LENGTH = 4
"""A brand's name shorter than this (an acronym: ``ups``, ``att``, ``tim``) is claimed by an office
word or its own country code (``ups-us``), not by a service word: ``att-tax-services`` and
``tim-consulting-services`` read as firms' names."""


def countries(domain: str) -> frozenset[str]:
    """The country words that claim ``domain``'s jurisdiction (``hmrc.gov.uk``: uk, gb, ukgov), read
    from its suffix or, for a listed brand, its home market (``royalmail.com``: uk, gb, ukgov)."""
    home = home_country(domain)
    last = home or domain.rsplit(".", 1)[-1]
    if last in ("gov", "mil") or home == "us":
        return _US
    if last == "uk":
        return frozenset({"uk", "gb", "ukgov"})
    return frozenset({last}) if len(last) == 2 else frozenset()


def claim_words(name: str, domain: str, kind: str) -> frozenset[str]:
    """The words that claim ``domain`` (a look-alike target of kind ``kind`` whose label is
    ``name``) beside its name, besides office words: any service word or its own country for a
    public body (``institution``) or a brand phishing imitates (``brand``; its own country only
    for a name shorter than :data:`MIN_SERVICE_BRAND_LENGTH`); none for any other kind (a common
    word or a town's name beside a service word reads as a firm's name:
    ``treasury-payment-solutions``, ``boston-tax-services``), nor for a name that is itself a
    service word (``tax.gov`` is not claimed by ``tax-services``)."""
    if kind not in ("institution", "brand") or name in SERVICE_WORDS:
        return frozenset()
    if kind == "brand" and len(name) < MIN_SERVICE_BRAND_LENGTH:
        return countries(domain)
    return SERVICE_WORDS | countries(domain)


__all__ = ["COUNTRY_CODES", "GENERIC_CODES", "MIN_SERVICE_BRAND_LENGTH", "NOT_BRANDS", "OFFICE_WORDS", "SERVICE_WORDS", "claim_words", "countries"]
