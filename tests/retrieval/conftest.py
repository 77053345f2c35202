"""A dozen hand-written documents (one per topic) and a shared encoder for the retrieval tests."""
from __future__ import annotations

import pytest

from authorag.relevance.dense import DenseEncoder
from authorag.types import Candidate

DOCS: list[tuple[str, str, str]] = [
    ("nih", "https://www.nih.gov/news/cranberry-uti",
     ("Cranberry products and urinary tract infections: a review of clinical trials found that "
     "cranberry juice may reduce recurrent urinary tract infections in some women.")),
    ("blog", "https://cranberrycure.blogspot.com/post",
     "Cranberries cure every urinary tract infection overnight, doctors hate this trick."),
    ("zinc", "https://www.mayoclinic.org/zinc-colds",
     "Zinc lozenges may shorten the duration of the common cold when taken within a day of symptoms."),
    ("vitc", "https://www.webmd.com/vitamin-c",
     "Vitamin C supplements do not prevent colds in most people but may slightly shorten them."),
    ("tyre", "https://www.cars.com/tyre",
     "How to change a flat tyre: loosen the lug nuts, jack up the car and swap the wheel."),
    ("bread", "https://www.bbc.co.uk/food/sourdough",
     "Baking sourdough bread needs a lively starter, flour, water, salt and a long slow rise."),
    ("flu", "https://www.cdc.gov/flu/vaccine",
     "The seasonal influenza vaccine lowers the risk of flu illness and hospitalization."),
    ("marathon", "https://www.runnersworld.com/marathon",
     "Marathon training plans build weekly mileage gradually and include a taper before race day."),
    ("python", "https://docs.python.org/3/tutorial",
     "The Python tutorial introduces lists, dictionaries, functions and classes."),
    ("sleep", "https://www.sleepfoundation.org/melatonin",
     "Melatonin supplements can help with jet lag and may shorten the time it takes to fall asleep."),
    ("kidney", "https://www.kidney.org/stones",
     "Drinking plenty of water helps prevent kidney stones; bladder health also benefits from hydration."),
    ("coffee", "https://www.health.harvard.edu/coffee",
     "Moderate coffee drinking is linked to a lower risk of type 2 diabetes and Parkinson's disease."),
]


@pytest.fixture(scope="session")
def corpus() -> list[Candidate]:
    return [Candidate.create(url, text, id=doc_id, metadata={"topic": doc_id}) for doc_id, url, text in DOCS]


@pytest.fixture(scope="session")
def encoder() -> DenseEncoder:
    """The bundled MiniLM; the model itself is loaded once per process (library cache)."""
    return DenseEncoder()
