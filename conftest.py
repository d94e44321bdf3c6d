"""Root pytest configuration: skip collecting modules whose imports need R when R is absent."""

collect_ignore = []
try:
    import rpy2.robjects  # noqa: F401  (ValueError/RuntimeError when R is missing)
except Exception:  # noqa: BLE001 - any failure means pyale.r cannot be imported here
    collect_ignore.append("pyale/r.py")
