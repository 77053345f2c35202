"""Hand-written dev pages (written for this project) the page-evidence calibration is fitted on.

Each is ``(language, credible, text)``: credible pages report with attribution or name their
sources; the others use the styles low-credibility pages use. They are dev data only: no
test asserts an outcome on them.
"""
from __future__ import annotations

DEV_PAGES: tuple[tuple[str, int, str], ...] = (
    ("en", 1, "The city council approved the new bus routes on Monday, the transport department said. According to "
              "the department's report, ridership rose by 4 percent last year. A spokeswoman told reporters that the "
              "changes take effect in March."),
    ("en", 1, "Researchers at the university published a study in a peer-reviewed journal showing that the new "
              "vaccine reduced hospital visits. The survey data covered 12,000 patients, the authors reported."),
    ("en", 0, "SHOCKING! Doctors HATE this one miracle cure! Big pharma suppressed this secret remedy that cures "
              "everything. Detox your body of toxins now, guaranteed results or your money back!!!"),
    ("en", 0, "Buy cheap pills online! Huge discount, coupon inside, bestseller, hurry while the bargain lasts! "
              "Checkout now and get a bonus bottle free!"),
    ("en", 0, "Download the registry fixer now! Our cleaner removes every virus and malware, booster included. "
              "Click for an instant scan, free download today!"),
    ("en", 0, "The mainstream media and the elites are hiding the truth. The plandemic was a hoax, a conspiracy "
              "of globalists, and everything is censored. Wake up, sheeple!"),
    ("de", 1, "Der Stadtrat hat am Montag den Haushalt beschlossen, sagte ein Sprecher der Stadt. Laut dem Bericht "
              "des Finanzamts steigen die Ausgaben um drei Prozent, wie die Statistik zeigt."),
    ("de", 0, "Unglaublich! Dieses Wundermittel heilt alles, garantiert! Die Pharma-Lobby will dieses Geheimnis "
              "vertuschen. Entgiftung in drei Tagen, jetzt kaufen mit Rabatt!"),
    ("es", 1, "El ministerio publicó hoy un informe con los datos de empleo, según explicó su portavoz. El estudio "
              "de la universidad, publicado en una revista científica, confirma la tendencia, dijo la autora."),
    ("es", 0, "¡Increíble! Este remedio milagroso cura todo, garantizado. Las farmacéuticas lo ocultan. ¡Compre "
              "ahora con descuento, oferta por tiempo limitado, envío gratis!"),
    ("fr", 1, "Selon le rapport publié lundi par l'institut, les données montrent une baisse du chômage, a indiqué "
              "le porte-parole. L'étude des chercheurs de l'université a été publiée dans une revue."),
    ("fr", 0, "Incroyable ! Ce remède miracle garanti élimine les toxines. Les élites et la pharma cachent ce "
              "secret, c'est un complot ! Achetez maintenant avec réduction, livraison gratuite !"),
)
"""Dev pages: (language, credible, text)."""

__all__ = ["DEV_PAGES"]
