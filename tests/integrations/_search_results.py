"""The web-search results the agent-hook tests hand their fake search tool (one question, four pages)."""
from __future__ import annotations

QUERY = "does cranberry juice prevent urinary tract infections"
RESULTS = [
    {"url": "https://cranberrycure.blogspot.com/post", "title": "Cranberry cures UTIs",
     "content": "Cranberry juice prevents every urinary tract infection."},
    {"url": "https://healthy-tips-4u.example.biz/cranberry", "title": "Tips",
     "content": "Drink cranberry juice daily instead of antibiotics for urinary tract infections."},
    {"url": "https://www.nih.gov/news/cranberry-uti", "title": "Cranberry and UTIs",
     "content": "A review of trials of cranberry products for urinary tract infections found a modest effect."},
]
MAYO = {"url": "https://www.mayoclinic.org/cranberry", "title": "Cranberry juice",
        "content": "Cranberry juice and urinary tract infections: the evidence is mixed."}
