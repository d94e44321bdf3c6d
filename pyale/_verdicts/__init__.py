"""Verdicts about ALE curves: whether an effect is the same across segments (``compare``)."""
