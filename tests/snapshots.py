"""What a call could change about the caller's data, recorded apart from the data's own memory.

Shared by ``tests/frontends/test_isolation.py`` and the property tests.  On pandas 2.x
even a deep copy shares the index, the column labels and a Categorical's
categories, so those are kept as Python lists; columns are looked up by
position, so frames with repeated labels work too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.testing import assert_frame_equal


class Snapshot:
    """``Snapshot(X)`` now, ``assert_unchanged(X)`` after the call.

    ``held``: column positions the user holds as Series of their own; pyale
    must not make them read-only either.
    """

    def __init__(self, X: pd.DataFrame, *, held: tuple = ()):
        self.copy = X.copy(deep=True)
        self.index = X.index.tolist()
        self.index_dtype = X.index.dtype
        self.columns = X.columns.tolist()
        self.dtypes = [str(d) for d in X.dtypes]
        self.categories = {i: X.iloc[:, i].cat.categories.tolist() for i in range(X.shape[1])
                           if isinstance(X.dtypes.iloc[i], pd.CategoricalDtype)}
        self.flags = {i: X.iloc[:, i].to_numpy().flags.writeable for i in range(X.shape[1])
                      if isinstance(X.dtypes.iloc[i], np.dtype)}
        self.frame_flags = X.flags.allows_duplicate_labels
        self.held = [(X.iloc[:, i], X.iloc[:, i].to_numpy().flags.writeable) for i in held]

    def assert_unchanged(self, X: pd.DataFrame) -> None:
        assert X.columns.tolist() == self.columns, "X's column labels or order changed"
        assert X.index.tolist() == self.index and X.index.dtype == self.index_dtype, "X's index changed"
        assert [str(d) for d in X.dtypes] == self.dtypes, "X's dtypes changed"
        for i, categories in self.categories.items():
            assert X.iloc[:, i].cat.categories.tolist() == categories, "X's categories changed"
        assert_frame_equal(X, self.copy, check_exact=True, check_flags=True)
        for i, writeable in self.flags.items():
            assert X.iloc[:, i].to_numpy().flags.writeable == writeable, f"column {i} flags changed"
        assert X.flags.allows_duplicate_labels == self.frame_flags
        for series, writeable in self.held:
            assert series.to_numpy().flags.writeable == writeable, f"held column {series.name!r} flags changed"
