"""The IR after every pass, as text, for whoever wonders what a pass did: `mcugen --dump-ir DIR ...`
(or MCUGEN_DUMP_IR=DIR) writes DIR/NN_<pass>.txt, numbered in pipeline order (Graph.text)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph

G = TypeVar("G", bound=Graph)  # a pass's result, Compiled from plan_memory on

ENV = "MCUGEN_DUMP_IR"
PASSES = ("read_tflite", "verify", "resolve_variables", "validate_model", "flatten_biases", "expand_groups",
          "fold_constants", "cut_outputs", "check_support", "fold_pads", "fold_quantizes",
          "prepare_ops", "check_undefined_reads",
          "split_patches", "lower_ops", "place_views", "fold_slices", "fuse_strips", "pack_int4", "pack_float16",
          "plan_memory", "grow_scratch", "place_weights", "stage_weights")


def after(name: str, graph: G) -> G:
    """`graph`, the result of pass `name`, written out when dumping is asked for."""
    folder = os.environ.get(ENV)
    if folder:
        path = Path(folder) / f"{PASSES.index(name) + 1:02d}_{name}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(graph.text() + "\n")
        except OSError as exc:
            raise McugenError(f"cannot write {path} ({exc.strerror})", "choose another --dump-ir folder") from None
    return graph
