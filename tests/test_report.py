"""pyale.report and ``pyale report``: the evidence package, in a real browser and as PDF page images.

The browser checks need Debian's headless ``chromium``, the PDF checks
poppler's ``pdftoppm``, ``pdftotext`` and ``pdfinfo``; each skips with the
reason when its program is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import hashlib
from html import unescape
import json
import re
import shutil
import subprocess

import numpy as np
import pytest

import pyale
from pyale._cli import main
from pyale._report.example import CreditScorecard, load_credit
from pyale._report.pdf import MARGIN, PAGE_SIZE

pytest.importorskip("jinja2")


def _options():
    data = load_credit().iloc[:800]
    return data, dict(y=data["default"].to_numpy(), segments="region", n_bootstrap=20, n_permutations=19,
                      expect={"debt_to_income": "increasing"}, random_state=3, n_intervals=8)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    data, options = _options()
    out = tmp_path_factory.mktemp("report") / "evidence"
    written = pyale.report(CreditScorecard(), data.drop(columns=["default"]), ["debt_to_income", "region"], out=out,
                           **options)
    return written


def test_package_files_and_manifest(package):
    names = {p.name for p in package.files}
    assert {"report.html", "report.pdf", "numbers.json", "manifest.json"} <= names
    assert sorted(p.name for p in package.folder.iterdir()) == sorted(names)
    manifest = json.loads((package.folder / "manifest.json").read_text())
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((package.folder / name).read_bytes()).hexdigest() == digest
    numbers = json.loads((package.folder / "numbers.json").read_text())
    # every table is in numbers.json and in its CSV, with the same rows
    csvs = {p.name for p in package.files if p.suffix == ".csv"}
    assert {t["file"] for t in numbers["tables"]} == csvs
    tests = next(t for t in numbers["tables"] if t["table"] == "tests")
    assert tests["columns"][:4] == ["segment_a", "segment_b", "output", "aled"]
    assert len(tests["rows"]) == 6  # four regions: six pairs
    provenance = numbers["provenance"]
    assert re.fullmatch(r"[0-9a-f]{64}", provenance["data_sha256"])
    assert re.fullmatch(r"[0-9a-f]{64}", provenance["model_sha256"])
    assert provenance["random_state"] == 3 and "numpy" in provenance["versions"]
    titles = [s["title"] for s in numbers["sections"]]
    expected = ["Effect of debt_to_income", "Effect of region", "Shape checks", "Materiality ranking",
                "Stability of debt_to_income across segments", "Reason codes of the first 5 rows"]
    omitted = dict(map(tuple, numbers["not_included"]))
    for name, title in (("check_shape", "Shape checks"), ("materiality", "Materiality ranking"),
                        ("reason_codes", "Reason codes of the first 5 rows")):
        if not hasattr(pyale, name):  # a pluggable section: listed as left out, with the reason
            expected.remove(title)
            assert title in omitted
    assert titles == expected
    assert "segments of region" in omitted  # the segment column is not compared with itself
    if hasattr(pyale, "check_shape"):
        shape = next(t for t in numbers["tables"] if t["section"] == "shape" and t["table"] == "table")
        verdict = dict(zip(shape["columns"], shape["rows"][0]))
        assert (verdict["feature"], verdict["expectation"]) == ("debt_to_income", "increasing")
        assert verdict["verdict"] in ("pass", "inconclusive")


def test_html_states_how_and_provenance(package):
    html = unescape(package.html.read_text())
    n_sections = len(json.loads((package.folder / "numbers.json").read_text())["sections"])
    assert html.count("What was computed and how.") == n_sections
    n_figures = sum(1 for p in package.files if p.suffix == ".svg")
    assert html.count('src="data:image/svg+xml;base64,') == n_figures >= 4
    data_sha = json.loads((package.folder / "numbers.json").read_text())["provenance"]["data_sha256"]
    assert html.count(data_sha) >= 4  # provenance and the foot of every section
    assert "pyale.report(model, X, ['debt_to_income', 'region']" in html
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")


def test_same_call_same_numbers(tmp_path):
    data, options = _options()
    X = data.drop(columns=["default"])
    first = pyale.report(CreditScorecard(), X, ["debt_to_income"], out=tmp_path / "a", **options)
    saved = tmp_path / "first"
    shutil.copytree(first.folder, saved)
    again = pyale.report(CreditScorecard(), X, ["debt_to_income"], out=tmp_path / "a", overwrite=True, **options)
    for path in again.files:
        if path.suffix in (".csv", ".json"):
            assert path.read_bytes() == (saved / path.name).read_bytes(), path.name
    assert json.loads((saved / "numbers.json").read_text())["provenance"]["random_state"] == 3


def test_out_refused_when_not_empty(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    data, options = _options()
    with pytest.raises(ValueError, match=re.escape("The 'out' parameter of report")):
        pyale.report(CreditScorecard(), data.drop(columns=["default"]), ["debt_to_income"], out=tmp_path / "full",
                     **options)
    assert (tmp_path / "full" / "keep.txt").read_text() == "x"


def test_command_line_example(tmp_path, capsys):
    code = main(["report", "--example", "credit", "--features", "utilisation", "--bootstrap", "10",
                 "--permutations", "9", "--intervals", "6", "--periods", "year", "--out", str(tmp_path / "cli")])
    assert code == 0, capsys.readouterr().err
    numbers = json.loads((tmp_path / "cli" / "numbers.json").read_text())
    command = numbers["provenance"]["command"]
    assert command.startswith("pyale report --example credit --features utilisation")
    assert "--random-state 0" in command and "--periods year" in command
    keys = [s["key"] for s in numbers["sections"]]
    assert keys[0] == "effect_utilisation" and {"segments_utilisation", "periods_utilisation"} <= set(keys)
    assert main(["report", "--example", "credit", "--expect", "income:wiggly", "--out", str(tmp_path / "x")]) == 2
    assert "must be one of increasing" in capsys.readouterr().err


# ------------------------------------------------------------------ a real browser
def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")


def _run_browser(args, timeout=120):
    return subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--no-first-run", "--hide-scrollbars", *args], capture_output=True, text=True,
                          timeout=timeout)


_CHECK = """<script>
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (im) { return !(im.complete && im.naturalWidth > 0 && im.naturalHeight > 0); });
  var out = document.createElement('pre'); out.id = 'pyale-check';
  out.textContent = 'IMAGES ' + images.length + ' BROKEN ' + broken.length + ' ERRORS ' + window.__errors.length;
  document.body.appendChild(out);
});
</script>"""


def test_html_in_headless_chromium(package, tmp_path):
    html = package.html.read_text()
    probe = tmp_path / "probe.html"  # the page as written plus a script that counts images that loaded
    probe.write_text(html.replace("<head>", "<head><script>window.__errors=[];window.addEventListener('error',"
                                           "function(e){window.__errors.push(String(e.message||e));},true);"
                                           "</script>", 1).replace("</body>", _CHECK + "</body>"))
    result = _run_browser(["--virtual-time-budget=10000", "--dump-dom", probe.as_uri()])
    found = re.search(r"IMAGES (\d+) BROKEN (\d+) ERRORS (\d+)", result.stdout)
    assert found, result.stderr[-2000:]
    n_figures = sum(1 for p in package.files if p.suffix == ".svg")
    assert (int(found[1]), int(found[2]), int(found[3])) == (n_figures, 0, 0)
    # the page itself, unchanged: no console message at all (errors, failed loads) and a full screenshot
    shot = tmp_path / "shot.png"
    logged = _run_browser(["--enable-logging=stderr", "--v=0", "--window-size=1200,2400",
                           f"--screenshot={shot}", package.html.as_uri()])
    console = [line for line in logged.stderr.splitlines() if "CONSOLE" in line or "Failed to load" in line]
    assert console == []
    from PIL import Image

    with Image.open(shot) as image:
        assert image.size == (1200, 2400)
        pixels = np.asarray(image.convert("L"), dtype=float)
    assert (pixels < 200).mean() > 0.02  # text and figures drawn, not a blank page


# ------------------------------------------------------------------ the PDF as images
def _poppler(name):
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"poppler's {name} is not installed (Debian: apt-get install poppler-utils)")
    return path


def test_pdf_pages_render_and_nothing_is_cut(package, tmp_path):
    info = subprocess.run([_poppler("pdfinfo"), str(package.pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"Pages:\s+(\d+)", info.stdout)[1])
    assert pages >= 5
    subprocess.run([_poppler("pdftoppm"), "-r", "40", "-png", str(package.pdf), str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == pages
    from PIL import Image

    for path in images:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("L"), dtype=float)
        height, width = pixels.shape
        assert abs(width / height - PAGE_SIZE[0] / PAGE_SIZE[1]) < 0.01
        side = int(width * (MARGIN["side"] - 6) / 72 / PAGE_SIZE[0])
        edge = int(height * 8 / 72 / PAGE_SIZE[1])
        # nothing drawn in the side margins or at the very top and bottom: no text runs off the page
        for band in (pixels[:, :side], pixels[:, -side:], pixels[:edge], pixels[-edge:]):
            assert band.min() > 240, path.name
        assert (pixels < 200).mean() > 0.002, path.name  # the page has content
    # every word inside the text area, page by page, and the page numbers and contents are there
    bbox = subprocess.run([_poppler("pdftotext"), "-bbox", str(package.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    page_width, page_height = PAGE_SIZE[0] * 72, PAGE_SIZE[1] * 72
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                       bbox)
    assert len(words) > 500
    for x0, y0, x1, y1, word in words:
        assert MARGIN["side"] - 1 <= float(x0) and float(x1) <= page_width - MARGIN["side"] + 1, word
        assert 0 < float(y0) and float(y1) < page_height, word
    text = subprocess.run([_poppler("pdftotext"), "-layout", str(package.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    for number in range(1, pages + 1):
        assert f"page {number} of {pages}" in text
    assert "Contents" in text and "Stability of debt_to_income across segments" in text
