"""The evidence package of ``pyale report``: HTML, PDF, CSV and JSON from one set of results."""
