"""Sphinx configuration of pyale's documentation site.

Build (from the repository root; warnings are errors, references nitpicky)::

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

Nothing is downloaded at build time: there is no intersphinx (the build
machine reaches no documentation site), so references to other projects'
types are plain text, and the few that docstrings spell as roles are listed
in ``nitpick_ignore`` below.  Pages generated at build time (API stubs,
gallery) go to ``docs/generated/`` and ``docs/gallery/`` (git-ignored).

Adding to the site:

- a public name: list it in a section of ``docs/api.rst`` (tests/test_docs.py
  fails while a name of ``pyale.__all__`` is missing there); its docstring
  needs numpydoc sections and an Examples section that doctest checks;
- a gallery example: a script ``examples/plot_*.py`` starting with a
  docstring title (small data, nothing downloaded; it runs at every build);
- a page: a Markdown file in ``docs/`` listed in a toctree (``guides.md`` or
  ``validation.md``); until it is, it appears under "More" in the user guide;
- a convention or a fixture set: nothing to do, the tables read
  ``pyale._core.conventions`` and ``reference/`` when the site is built.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))          # the pyale of this checkout, not an installed one
sys.path.insert(0, str(DOCS / "_ext"))  # pyale_docs: the generated tables

import pyale  # noqa: E402

project = "pyale"
author = "pyale developers"
copyright = "pyale developers; GPL-2.0-or-later"  # noqa: A001 - Sphinx's name
version = release = pyale.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "sphinxarg.ext",
    "pyale_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "examples",                 # migration.R / migration.py twins (tests/test_migration_docs.py)
    "gallery/*.ipynb",
    "**/*.zip",
]
templates_path = ["_templates"]
nitpicky = True

# ---------------------------------------------------------------- Markdown pages
# The pages under docs/ were written for reading on a forge first; MyST reads
# them as they are (heading anchors for their in-page links, tables, math).
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 4

# ---------------------------------------------------------------- API reference
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"          # the numpydoc sections carry the types
add_module_names = False

numpydoc_show_class_members = False  # the class template lists members itself
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"        # words that are not pyale names stay plain text
try:
    from numpydoc.xref import DEFAULT_LINKS
except ImportError:  # pragma: no cover - numpydoc without the table
    DEFAULT_LINKS = {}
# numpydoc's default aliases point into Python's and NumPy's inventories, which
# this offline build does not have: map each to itself (plain text), and pyale's
# own names to their pages.
numpydoc_xref_aliases = {name: name for name in DEFAULT_LINKS}
numpydoc_xref_aliases.update({name: f"pyale.{name}" for name in pyale.__all__ if name != "__version__"})
# numpydoc checks every documented public docstring during the build; a
# failure is a warning, hence an error under -W.
numpydoc_validation_checks = {
    "GL06",  # unknown section
    "GL07",  # sections in the wrong order
    "GL08",  # no docstring
    "PR01",  # a parameter not documented
    "PR02",  # a documented parameter that does not exist
    "PR03",  # parameters documented in the wrong order
    "PR10",  # colon without a space before the type
    "RT02",  # return type given as a name only
    "SS01",  # no summary
}
# The result containers are frozen dataclasses that pyale builds and users
# read: their fields are documented once, as Attributes, so numpydoc's "every
# constructor parameter documented" (PR01) would ask for them twice; ALEResults
# is a list.  tests/test_docs.py still validates them, without PR01.
numpydoc_validation_exclude = {
    r"\.__init__$",
    r"\._repr_html_$",
    r"^pyale\.(ALEResult|ALEResults|ALEPlotResult|PDPlotResult|ShapeCheck|Materiality|ReasonCodes|RegionalResult|Region|Comparison|Report)$",
}

# External types that docstrings write as roles (the build has no intersphinx):
# each is shown as plain text instead of a broken link.  Keep this list short.
nitpick_ignore = [
    ("py:obj", "sklearn.inspection.PartialDependenceDisplay"),  # ALEDisplay's See Also
]

# pyale.r imports rpy2 at import time: without R here, document it from a mock.
try:
    import rpy2.robjects  # noqa: F401
except Exception:  # noqa: BLE001 - ImportError, or ValueError/RuntimeError without R
    autodoc_mock_imports = ["rpy2"]

# ---------------------------------------------------------------- gallery
sphinx_gallery_conf = {
    "examples_dirs": [str(ROOT / "examples")],
    "gallery_dirs": ["gallery"],
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "show_memory": False,
    "abort_on_example_error": True,
    "doc_module": ("pyale",),
    "backreferences_dir": "generated/backreferences",
    "min_reported_time": 1,
    # matplotlib's defaults before each example, and no pyale.r left over from
    # documenting it against a mock of rpy2 (see pyale_docs.reset_r_bridge).
    "reset_modules": ("matplotlib", "pyale_docs.reset_r_bridge"),
}
os.environ.setdefault("MPLBACKEND", "Agg")
# The gallery's models are small: OpenMP threads (scikit-learn's gradient
# boosting) only contend with each other on a shared 2-core machine, where
# they made one example 3 to 10 times slower.  Set before any example imports
# scikit-learn; a value set by the caller wins.
os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore", message="Matplotlib is currently using agg", category=UserWarning)

# ---------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"pyale {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 7,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "getting-started": []}
html_static_path = ["_static"]
html_css_files = ["pyale.css"]
html_show_sourcelink = False
