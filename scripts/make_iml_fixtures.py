"""Write reference/iml/<case>.json from R's iml 0.11.4 (run: python scripts/make_iml_fixtures.py).

Every case of ``scripts/iml_cases.py`` is run in R through rpy2.  A fixture
holds the inputs (data with R's column types, model, arguments), R's
``results`` column by column (doubles travel through rpy2 and are written by
Python's json, so they read back exactly), the intermediates R exposes
(grid edges, level order, PDP grid), the rows an R-fitted model was asked
about with R's answers (so pyale can replay the model), and metadata.
Files are generated: do not edit them.

Usage: python scripts/make_iml_fixtures.py [case-name ...]
"""

from __future__ import annotations

import datetime
import json
import math
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from iml_cases import CASES, R_FITS, R_MODELS, data_set  # noqa: E402

OUT = ROOT / "reference" / "iml"
TOLERANCE = {"rtol": 1e-10, "atol_scale": 1e-10}

R_HELPERS = r"""
suppressPackageStartupMessages({library(iml); library(data.table)})
.pyale_export <- function(df) {
  df <- as.data.frame(df)
  lapply(df, function(col) {
    cls <- class(col)[1]
    list(class = cls,
         levels = if (is.factor(col)) levels(col) else character(0),
         values = if (is.factor(col)) as.character(col) else col,
         na = is.na(col))
  })
}
.pyale_rec <- list()
.pyale_recorder <- function(predict_call) {
  function(model, newdata) {
    p <- predict_call(model, newdata)
    .pyale_rec[[length(.pyale_rec) + 1]] <<- list(x = .pyale_export(newdata), y = as.matrix(p))
    p
  }
}
"""


def _r():
    import rpy2.robjects as ro

    ro.r(R_HELPERS)
    return ro


def _export_to_table(ro, exported) -> dict:
    """An exported R data frame (.pyale_export) as a JSON-ready table."""
    names = list(exported.names)
    table = {"columns": names, "types": {}, "values": {}}
    for name in names:
        col = exported.rx2(name)
        cls = str(col.rx2("class")[0])
        na = [bool(v) for v in col.rx2("na")]
        raw = col.rx2("values")
        if cls in ("factor", "ordered"):
            values = [None if m else str(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "factor", "levels": [str(v) for v in col.rx2("levels")],
                                    "ordered": cls == "ordered"}
        elif cls == "numeric":
            values = [None if m else float(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "double"}
        elif cls == "integer":
            values = [None if m else int(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "integer"}
        elif cls == "character":
            values = [None if m else str(v) for v, m in zip(raw, na)]
            table["types"][name] = {"type": "character"}
        else:
            raise TypeError(f"column {name!r} of class {cls} cannot be exported")
        table["values"][name] = values
    return table


def _r_literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], (list, tuple)):
            return "list(" + ", ".join(_r_literal(v) for v in value) + ")"
        return "c(" + ", ".join(_r_literal(v) for v in value) + ")"
    return repr(float(value))


def _input_frame(ro, case):
    """(pandas frame for pyale, R expression building `train`)."""
    from pyale.r import to_r_dataframe

    if case.data == "iris":
        ro.r("train <- datasets::iris")
        return None
    frame = data_set(case.data, case.seed)
    ro.globalenv["train"] = to_r_dataframe(frame)
    for name in case.r_factor:
        ro.r(f"train${name} <- factor(train${name})")
    return frame


def _predictor_code(case) -> str:
    extra = []
    p = case.predictor
    if "y" in p:
        extra.append(f"y = {_r_literal(p['y'])}")
    if "class_" in p:
        extra.append(f"class = {_r_literal(p['class_'])}")
    if "batch_size" in p:
        extra.append(f"batch.size = {int(p['batch_size'])}")
    tail = "".join(", " + e for e in extra)
    if case.model in R_MODELS:
        return (f"pf <- function(newdata) {{{R_MODELS[case.model]}\n}}\n"
                f"pred <- Predictor$new(data = train, predict.function = pf{tail})")
    fit_code, type_ = R_FITS[case.model]
    call = "predict(model, newdata)" if type_ is None else f"predict(model, newdata, type = {_r_literal(type_)})"
    return (f"{fit_code}\n.pyale_rec <- list()\n"
            f"pf <- .pyale_recorder(function(model, newdata) {call})\n"
            f"pred <- Predictor$new(fit, data = train, predict.function = pf{tail})")


def _effect_code(case) -> str:
    a = dict(case.args)
    if case.call == "FeatureEffects":
        parts = []
        if "features" in a:
            parts.append(f"features = {_r_literal(a['features'])}")
        for key, r_key in (("method", "method"), ("center_at", "center.at"), ("grid_size", "grid.size")):
            if key in a:
                parts.append(f"{r_key} = {_r_literal(a[key])}")
        return "eff <- FeatureEffects$new(pred" + "".join(", " + p for p in parts) + ")"
    feature = a["feature"]
    if case.r_feature_swap:
        feature = list(reversed(feature))
    parts = [f"feature = {_r_literal(feature)}"]
    grid_size = a.get("grid_size")
    if case.r_feature_swap and isinstance(grid_size, list):
        grid_size = list(reversed(grid_size))
    for key, r_key, value in (("method", "method", a.get("method")), ("center_at", "center.at", a.get("center_at")),
                              ("grid_size", "grid.size", grid_size), ("grid_points", "grid.points", a.get("grid_points"))):
        if key in a:
            parts.append(f"{r_key} = {_r_literal(value)}")
    return "eff <- FeatureEffect$new(pred, " + ", ".join(parts) + ")"


def _intermediates(ro, case) -> dict:
    """Grids and level orders as iml computes them, for locating a failure."""
    out = {}
    features = case.args.get("features") or ([case.args["feature"]] if "feature" in case.args else None)
    if features is None:
        features = list(ro.r("pred$data$feature.names"))
    if isinstance(features, str):
        features = [features]
    if isinstance(features[0], list):
        features = features[0]
    method = case.args.get("method", "ale")
    size = case.args.get("grid_size", 20)
    for i, name in enumerate(features):
        gs = size[i] if isinstance(size, list) else size
        ftype = str(ro.r(f'pred$data$feature.types[["{name}"]]')[0])
        entry = {"feature_type": ftype}
        if ftype == "categorical":
            is_factor = bool(ro.r(f'is.factor(pred$data$X[["{name}"]])')[0])
            if method == "ale" and is_factor:
                entry["level_order"] = [int(v) for v in ro.r(
                    f'if (is.ordered(pred$data$X[["{name}"]])) seq_len(nlevels(droplevels(pred$data$X[["{name}"]]))) '
                    f'else iml:::order_levels(copy(pred$data$X), "{name}")')]
                entry["levels"] = list(ro.r(f'levels(droplevels(pred$data$X[["{name}"]]))'))
        elif method == "ale":
            entry["edges"] = [float(v) for v in ro.r(
                f'unique(iml:::get.grid(pred$data$X[, "{name}", with = FALSE], {int(gs)} + 1, type = "quantile"))[[1]]')]
        else:
            anchor = _r_literal(case.args.get("center_at"))
            entry["pdp_grid"] = [float(v) for v in ro.r(
                f'iml:::get.grid(pred$data$X[, "{name}", with = FALSE], {int(gs)}, anchor.value = {anchor})[[1]]')]
        out[name] = entry
    return out


def _recorded(ro) -> dict | None:
    rec = ro.r(".pyale_rec")
    if len(rec) == 0:
        return None
    tables, outputs, names = [], [], None
    for item in rec:
        tables.append(_export_to_table(ro, item.rx2("x")))
        y = np.asarray(item.rx2("y"), dtype=float)
        dims = list(ro.r["dim"](item.rx2("y")))
        y = y.reshape(dims, order="F") if y.ndim == 1 else y
        outputs.append(y)
        cn = ro.r["colnames"](item.rx2("y"))
        names = None if cn is ro.NULL else [str(v) for v in cn]
    columns = tables[0]["columns"]
    seen, rows, ys = {}, [], []
    for table, y in zip(tables, outputs):
        n = len(table["values"][columns[0]])
        for i in range(n):
            row = tuple(table["values"][c][i] for c in columns)
            if row in seen:
                if not np.array_equal(np.asarray(ys[seen[row]]), y[i]):
                    raise RuntimeError("the recorded model answered one row differently")
                continue
            seen[row] = len(rows)
            rows.append(row)
            ys.append(y[i].tolist())
    return {"columns": columns, "types": tables[0]["types"], "rows": [list(r) for r in rows],
            "outputs": ys, "output_names": names}


R_SEED = 20261122


def run_case(ro, case) -> dict:
    frame = _input_frame(ro, case)
    data_table = _export_to_table(ro, ro.r(".pyale_export(train)"))
    # iml's PD/ICE generator shuffles the rows it pairs with the grid
    # (MarginalGenerator: sample()); the averages agree to the last bits or so
    # whatever the shuffle, but a fixed R seed makes the files reproducible.
    code = f"set.seed({R_SEED})\n" + _predictor_code(case) + "\n" + _effect_code(case)
    ro.r(code)
    if case.call == "FeatureEffects":
        results = {name: _export_to_table(ro, ro.r(f'.pyale_export(eff$results[["{name}"]])'))
                   for name in ro.r("names(eff$results)")}
    else:
        results = _export_to_table(ro, ro.r(".pyale_export(eff$results)"))
    versions = {
        "R": str(ro.r("R.version.string")[0]),
        "iml": str(ro.r('as.character(packageVersion("iml"))')[0]),
        "data.table": str(ro.r('as.character(packageVersion("data.table"))')[0]),
    }
    if case.model in R_FITS:
        versions["rpart"] = str(ro.r('as.character(packageVersion("rpart"))')[0])
    if case.args.get("feature") and isinstance(case.args["feature"], list) and case.args.get("method", "ale") == "ale":
        versions["yaImpute"] = str(ro.r('as.character(packageVersion("yaImpute"))')[0])
    return {
        "name": case.name,
        "note": case.note,
        "call": case.call,
        "inputs": {
            "data": data_table,
            "python_data": None if frame is None else {"generator": "iml_cases.data_set", "name": case.data,
                                                       "seed": case.seed},
            "model": case.model,
            "model_kind": "closed_form" if case.model in R_MODELS else "replay",
            "args": case.args,
            "predictor": case.predictor,
            "r_feature_swap": case.r_feature_swap,
            "r_factor": list(case.r_factor),
        },
        "r_code": code,
        "results": results,
        "intermediates": _intermediates(ro, case),
        "recorded": _recorded(ro) if case.model in R_FITS else None,
        "metadata": {
            "generator": "scripts/make_iml_fixtures.py",
            "arguments": asdict(case),
            "versions": versions,
            "seed": case.seed,
            "tolerance": TOLERANCE,
            "generated": datetime.date.today().isoformat(),
            "do_not_edit": "generated by scripts/make_iml_fixtures.py from R; rerun it instead",
        },
    }


def _check_finite(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ValueError("non-finite float in a fixture")
    if isinstance(obj, dict):
        for v in obj.values():
            _check_finite(v)
    if isinstance(obj, list):
        for v in obj:
            _check_finite(v)


def write_fixtures(ro, cases, run, out: Path, wanted: list[str]) -> int:
    """Run each case (or only the ``wanted`` ones) and write ``out/<case>.json``."""
    unknown = set(wanted) - {case.name for case in cases}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
    out.mkdir(parents=True, exist_ok=True)
    for case in cases:
        if wanted and case.name not in wanted:
            continue
        fixture = run(ro, case)
        _check_finite(fixture)
        path = out / f"{case.name}.json"
        path.write_text(json.dumps(fixture, indent=1, allow_nan=False) + "\n")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


def main(argv: list[str]) -> int:
    return write_fixtures(_r(), CASES, run_case, OUT, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
