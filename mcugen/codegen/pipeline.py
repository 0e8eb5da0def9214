"""The compiler as a table of contents: every pass, in order."""
from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

from mcugen.codegen.patch_plan import choose_stage, settle_fit
from mcugen.errors import McugenError
from mcugen.ir.dump import after
from mcugen.ir.budget import Budget
from mcugen.ir.graph import Compiled, Graph
from mcugen.ir.tuning import Tuning
from mcugen.passes.check_support import check_support
from mcugen.passes.check_undefined_reads import check_undefined_reads
from mcugen.passes.compute_fp16 import compute_fp16
from mcugen.passes.cut_outputs import cut_outputs
from mcugen.passes.flatten_biases import flatten_biases
from mcugen.passes.fold_constants import fold_constants
from mcugen.passes.fold_pads import fold_pads
from mcugen.passes.fold_quantizes import fold_quantizes
from mcugen.passes.fold_slices import fold_slices
from mcugen.passes.expand_groups import expand_groups
from mcugen.passes.fuse_strips import fuse_strips
from mcugen.passes.grow_scratch import grow_scratch
from mcugen.passes.lower_ops import lower_ops
from mcugen.passes.pack_float16 import pack_float16
from mcugen.passes.pack_int4 import pack_int4
from mcugen.passes.place_views import place_views
from mcugen.passes.place_weights import place_weights
from mcugen.passes.plan_memory import plan_memory
from mcugen.passes.prepare_ops import prepare_ops
from mcugen.passes.resolve_variables import resolve_variables
from mcugen.passes.split_patches import Stage, split_patches
from mcugen.passes.stage_weights import stage_weights
from mcugen.passes.validate_model import validate_model
from mcugen.frontend.read_tflite import read_tflite


def read(model_path: str | Path, signature: str | None = None) -> Graph:
    """The model as mcugen judges it (what `inspect` describes): parsed, checked, constants folded.
    `signature`: the entry point of a file with several (--signature)."""
    graph = after(read_tflite, model_path, signature)  # parse the FlatBuffer
    graph = after(graph.verify)                        # structural invariants
    graph = after(resolve_variables, graph)            # resource variables: state, initialised at build time
    graph = after(validate_model, graph)               # every field a kernel relies on, as TFLM accepts it
    graph = after(flatten_biases, graph)               # a bias is its values, whatever shape the file gives
    graph = after(expand_groups, graph)                # a grouped conv as the plain one it equals
    graph = after(fold_constants, graph)               # shape arithmetic on static shapes, at build time
    return graph


def lower(model_path: str | Path, outputs: tuple[str, ...] = (), signature: str | None = None,
          fp16: bool = False) -> Graph:
    """Front end: a .tflite file to a verified, supported, prepared Graph (what the golden model runs).
    `outputs`: tensor names to make the outputs, leaving out the layers after them. `fp16`: the core computes in
    half precision (Board.fp16_arithmetic), so the layers a precision plan made fp16 are computed so."""
    graph = read(model_path, signature)
    graph = after(cut_outputs, graph, outputs)   # --outputs: only the part the user asked for
    graph = after(check_support, graph)          # int8 layers, every op has a kernel
    graph = after(fold_pads, graph)              # a PAD before a conv as the conv's own padding
    graph = after(fold_quantizes, graph)         # a zero-point-only QUANTIZE into its writer
    graph = after(compute_fp16, graph, fp16)     # a precision plan's fp16 layers in fp16, where the core can
    graph = after(prepare_ops, graph)            # TFLM's Prepare, done at build time
    graph = after(check_undefined_reads, graph)  # no layer computes on undefined values
    return graph


def compile_model(model_path: str | Path, outputs: tuple[str, ...] = (), features: frozenset[str] = frozenset(),
                  tuning: Tuning | None = None, budget: Budget = Budget(), signature: str | None = None,
                  fp16: bool = False) -> Compiled:
    """Back end on top: each op's C kernel call, every activation's place in the arena and every weight's
    in flash (the Compiled record).
    `features`: the ISA features of the target's core (Board.features): the kernel variants they allow.
    `tuning`: the per-layer kernel choices `--tune` measured (mcugen.validation.tune).
    `budget`: what the model may take on its board (Board.budget): flash for constants, the RAM regions
    the arena may use (and --pin's requests), where weights may go (--weights), the RAM the arena may take
    (past it, the first stage runs in bands: --patches).
    `fp16`: the core computes in half precision (lower)."""
    graph = lower(model_path, outputs, signature, fp16)
    build = partial(back_end, features=features, tuning=tuning, budget=budget)
    try:
        whole: Compiled | None = build(graph)
    except McugenError:  # its activations fit none of the board's RAM regions: perhaps in bands
        whole = None
    tried: dict[Stage, int | None] = {}
    stage = choose_stage(graph, whole, budget, build, tried)
    banded = after(split_patches, graph, stage)  # the first stage band by band, where it must
    compiled = whole if stage is None and whole is not None else build(banded)
    return settle_fit(graph, whole, compiled, budget, build, tried)  # what the bands did, or what they would


def back_end(graph: Graph, features: frozenset[str], tuning: Tuning | None, budget: Budget) -> Compiled:
    """Kernels, fusion, packing, the arena and the weights' places, for a prepared Graph."""
    graph = after(lower_ops, graph, features, tuning, budget.const_room, budget.optimize)  # each op's kernel call
    graph = after(place_views, graph)                    # slices and concatenations that copy nothing
    graph = after(fold_slices, graph)                    # a slice only a transpose reads, read in its copy
    graph = after(fuse_strips, graph, budget, tuning)    # convs in their consumers
    graph = after(pack_int4, graph)                      # INT4 filters two to a byte, unpacked before their call
    graph = after(pack_float16, graph, budget.optimize, budget.arena_room)  # float16 weights kept float16
    compiled = after(plan_memory, graph, budget.regions, budget.pins, budget.external_inputs)  # lifetimes -> offsets
    compiled = after(grow_scratch, compiled)             # kernels' scratch widened into bytes free at its step
    compiled = after(place_weights, compiled, budget)    # weights in the chip's flash or external
    compiled = after(stage_weights, compiled, budget)    # re-read weights copied to free arena
    return dataclasses.replace(compiled, features=frozenset(features), tuning=tuning)  # what it was compiled for
