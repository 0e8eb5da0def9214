"""Proving a build right and measuring it: the golden model (golden.py) and the oracles it is checked
against (oracle.py, compare.py), input data (dataset.py), on-target validation (validate.py),
accuracy on labelled data (accuracy.py), cycle estimates (cycles.py) and per-layer tuning (tune.py),
and the reports people and CI read (inspect_model.py, report.py, html_report.py, json_reports.py).

Imports: errors, ir, frontend, ops, kernels, passes, codegen, targets (and mcugen's version).
"""
