"""``python -m authorag`` runs the CLI."""
from authorag.cli import entry

entry()
