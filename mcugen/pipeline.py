"""The compiler as a table of contents: every pass, in order."""
from __future__ import annotations

from pathlib import Path

from mcugen.ir import Graph
from mcugen.passes.check_support import check_support
from mcugen.passes.prepare_ops import prepare_ops
from mcugen.read_tflite import read_tflite


def lower(model_path: str | Path) -> Graph:
    """Front end: a .tflite file to a verified, supported, prepared Graph."""
    graph = read_tflite(model_path)   # parse the FlatBuffer
    graph = graph.verify()            # structural invariants
    graph = check_support(graph)      # full-integer, every op has a kernel
    graph = prepare_ops(graph)        # TFLM's Prepare, done at build time
    return graph
