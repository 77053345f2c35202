"""Vendored data files (prior sources, examples). See DATA_LICENSES.md."""
