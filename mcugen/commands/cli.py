"""`mcugen` command line. Every failure is one line on stderr and a non-zero exit."""
from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from pathlib import Path

from mcugen import __version__
from mcugen.commands import arguments
from mcugen.commands.board import cmd_build, cmd_export, cmd_flash
from mcugen.commands.boards import cmd_boards
from mcugen.commands.host import cmd_compare, cmd_inspect, cmd_run
from mcugen.commands.quantize import cmd_quantize
from mcugen.commands.report import cmd_report_html
from mcugen.commands.testing import cmd_report_merge, cmd_test
from mcugen.ir.budget import OPTIMIZE, OPTIMIZE_ROOM
from mcugen.ir.dump import ENV as DUMP_ENV
from mcugen.errors import EXIT_ERROR, EXIT_INTERNAL, McugenError
from mcugen.codegen.export import FORMATS
from mcugen.quantize.model import COSTS, IO_TYPES, PRECISIONS
from mcugen.quantize.recipe import CALIBRATIONS


DATA_HELP = (".npz of inputs (input_0, … or input names), or .npy for a one-input model; "
             "each shaped like its input, optionally with a leading sample axis (for a stateful model: "
             "the time axis, one step per sample)")


STEPS_HELP = ("samples run in order as consecutive steps: a stateful model (LSTM, SVDF, streaming variables) "
              "keeps its state from one to the next")


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line too, like every other error."""

    def error(self, message):
        # argparse names a bad choice and lists the good ones: the nearest one said first
        bad = re.match(r"argument .*: invalid choice: '(.*)' \(choose from (.*)\)$", message)
        if bad:
            close = difflib.get_close_matches(bad[1], re.findall(r"'([^']*)'", bad[2]), n=1, cutoff=0.5)
            message += f" (did you mean {close[0]}?)" if close else ""
        self.exit(EXIT_ERROR, f"mcugen: error: {message}; see {self.prog} --help\n")


MODEL_HELP = "the .tflite model"
WORKFLOW = """example (a float model first: mcugen quantize model_float.tflite --data calib.npz --out model.tflite):
  mcugen inspect model.tflite                  # what it is, and whether mcugen runs it
  mcugen test model.tflite --board mps2-an386  # build, run on the emulated Cortex-M4, compare bit for bit
  mcugen build model.tflite --board nano33     # firmware for a real board (then: mcugen flash --board nano33)"""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mcugen", description=__doc__, epilog=WORKFLOW,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"mcugen {__version__}")
    parser.add_argument("--dump-ir", metavar="DIR", help="write the IR after every compiler pass as text into DIR "
                                                         "(NN_<pass>.txt; MCUGEN_DUMP_IR=DIR does the same)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def signature_arg(p):
        p.add_argument("--signature", metavar="NAME", help="the entry point to run, of a file with several "
                       "signatures (`mcugen inspect` lists them); without it, subgraph 0 runs, as in TFLM (a "
                       "file's only signature's subgraph where it has one)")
        p.add_argument("--ops", metavar="FILE.py", help="your custom ops: the Python file that declares each "
                       "one's C kernel and numpy function (mcugen/ops/custom.py says how)")

    p = sub.add_parser("boards", help="list the boards mcugen builds for (or show one in full)")
    p.add_argument("board", nargs="?", help="a board id: show everything about that one")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_boards)

    p = sub.add_parser("inspect", help="describe a model and say whether mcugen supports it")
    p.add_argument("model", help=MODEL_HELP)
    signature_arg(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_inspect)

    def outputs_arg(p):
        signature_arg(p)
        p.add_argument("--outputs", action="append", default=[], metavar="T1,T2",
                       help="make these tensors the outputs and leave out the layers after them "
                            "(names as `mcugen inspect` prints them; repeat for names with commas)")

    p = sub.add_parser("run", help="run the golden model on the host")
    p.add_argument("model", help=MODEL_HELP)
    outputs_arg(p)
    p.add_argument("--data", "--input", required=True, help=DATA_HELP)
    p.add_argument("--output", required=True, help=".npz to write (output_0, output_1, …)")
    p.add_argument("--dump-layers", metavar="DIR", help="write every intermediate tensor here")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compare", help="golden model vs TFLM, layer by layer",
                       description=STEPS_HELP + ", in TFLM as in the golden model, every layer compared at every step.")
    p.add_argument("model", help=MODEL_HELP)
    outputs_arg(p)
    p.add_argument("--samples", type=arguments.sample_count, default=3,
                   help="how many random inputs to try when --data gives none (default 3)")
    p.add_argument("--seed", type=int, default=0, help="the random inputs' seed (default 0)")
    p.add_argument("--data", help=DATA_HELP)
    p.set_defaults(func=cmd_compare)

    def patches_args(p):
        p.add_argument("--patches", type=arguments.patches, default="auto", metavar="auto|off|N|RxC",
                       help="run the model's first layers band by band over their output's rows (or patch by patch "
                            "over a grid of rows and columns), recomputing what the patches share, so their "
                            "intermediate tensors never exist whole: auto (default: only where the arena does not "
                            "fit the board's RAM or --max-arena, the fewest extra MACs that fit), off, N bands, or "
                            "R bands of C patches (e.g. 6x6)")
        p.add_argument("--max-arena", type=arguments.byte_count, metavar="BYTES",
                       help="the arena (activations and variables) may take at most this many bytes of RAM: "
                            "past it, patch-based inference (--patches)")

    def optimize_arg(p):
        p.add_argument("--optimize", choices=OPTIMIZE, default="balanced",
                       help="what the kernels may spend flash on: balanced (default: weights widened for speed only "
                            f"while the constants stay within {OPTIMIZE_ROOM}x the model's weights), speed (wherever "
                            "the board's flash has room), size (never: int8 weights stay int8)")

    p = sub.add_parser("quantize", help="quantize a float model, calibrated on your samples, checked with TFLM",
                       description="Post-training full-integer quantization (the LiteRT quantizer: "
                                   "pip install 'mcugen[quantize]'), the result checked with TFLM and the golden "
                                   "model before it is written, each layer's error against the float model printed.")
    p.add_argument("model", help="the float32 .tflite model")
    p.add_argument("--data", required=True, help="calibration samples (at least 10; a few hundred like the data "
                                                 "the model will see): " + DATA_HELP)
    p.add_argument("--out", required=True, metavar="MODEL.tflite", help="where to write the quantized model")
    p.add_argument("--precision", choices=[p for p in PRECISIONS if p != "float32"], default="int8",
                   help="int8 activations and weights, int16 activations with int8 weights, int8 activations "
                        "with INT4 weights where TFLM takes them (conv, depthwise; the rest int8), float16 "
                        "weights with float32 activations (half the float model's flash), fp16: the same computed in "
                        "fp16 where the core can (Helium: the Cortex-M55), or dynamic: int8 weights, "
                        "float32 activations quantized at run time (LiteRT's reference kernels are the oracle of the "
                        "last three, TFLM runs none)")
    p.add_argument("--io", choices=IO_TYPES,
                   help="the type of the model's inputs and outputs (float32: QUANTIZE/DEQUANTIZE at the ends); "
                        "default int8, int16 for 16x8, float32 for float16, fp16 and dynamic")
    p.add_argument("--per-tensor", action="store_true",
                   help="one weight scale per tensor instead of one per output channel")
    p.add_argument("--plan", metavar="PLAN.yaml",
                   help="each layer's precision from a file: `default: int8` and `layers: {0: 16x8, dense_1: fp32}` "
                        "(layers by the index or output name `mcugen inspect` prints; int8, 16x8, w4a8, fp16, float16, "
                        "fp32, dynamic); --search writes its choice as one")
    p.add_argument("--signature", metavar="NAME", help="the entry point to quantize, of a file with several")
    p.add_argument("--calibration", choices=CALIBRATIONS, default="moving-average",
                   help="how each tensor's range is taken from the --data samples: the quantizer's moving average of "
                        "their extremes (default; the per-layer table shows what it clips), or the extremes of all")
    p.add_argument("--search", action="store_true",
                   help="choose each layer's precision (int8, 16x8, INT4 weights, fp16, float32) by accuracy on --eval "
                        "and cost measured for --board; writes the cheapest model within --max-drop")
    p.add_argument("--eval", metavar="EVAL", help="evaluation samples (" + DATA_HELP + "): the quantized "
                   "model's outputs measured against the float model's on all of them (and --search's accuracy)")
    p.add_argument("--labels", metavar="LABELS",
                   help=".npy of one class index per --eval sample: top-1 on them, the float model's beside it; "
                        "without, accuracy is agreement with the float model's top-1")
    p.add_argument("--board", help="--search: the board whose core measures each candidate's cycles, flash and RAM")
    p.add_argument("--max-drop", type=arguments.points, default=1.0, metavar="POINTS",
                   help="--search: the top-1 accuracy (percentage points) the choice may lose against the float "
                        "model (default 1)")
    p.add_argument("--cost", choices=COSTS, default="time",
                   help="--search: what cheapest means: estimated cycles (instructions where the core has no "
                        "timing table), flash (each candidate's smallest build: --optimize size) or RAM")
    optimize_arg(p)
    patches_args(p)
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="--search on a Dask cluster (the cluster extra): each candidate's quantizing, cost and "
                        "accuracy per part of --eval as tasks; tcp://HOST:PORT of a scheduler you started, or local[:N]")
    p.add_argument("--jobs", type=arguments.job_count, default=1, metavar="N",
                   help="--search in N local processes (--cluster local:N)")
    p.add_argument("--json", metavar="REPORT", help="write the per-layer errors and sizes (with --search: every "
                                                     "candidate, and a picture of the front beside it) here")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_quantize)

    def region_args(p):
        p.add_argument("--region-bytes", action="append", default=[], metavar="REGION=BYTES",
                       help="let the model's arena use at most BYTES of a RAM region of the board (the rest stays "
                            "free, e.g. for a second model)")
        p.add_argument("--region-cost", action="append", default=[], metavar="REGION=RANK",
                       help="rank a RAM region's access cost anew (0 the fastest) for this model's placement")
        p.add_argument("--pin", action="append", default=[], metavar="TENSOR=REGION",
                       help="put a tensor's buffer in this RAM region (names as `mcugen inspect` prints them)")
        p.add_argument("--weights", choices=("auto", "internal", "external", "ram"), default="auto",
                       help="where the weight arrays go: the board's flash, its external flash region, the "
                            "flash until it is full and the least read weights outside (auto), or copied into "
                            "RAM at start-up, the most read first while RAM is left (ram: no flash wait states)")
        optimize_arg(p)
        patches_args(p)
        p.add_argument("--external-input", action="store_true",
                       help="the model reads its inputs where the caller keeps them (NAME_set_input: a camera's "
                            "buffer, flash), not from a copy in the arena: the arena is smaller by them")

    def board_args(p, model=True):
        if model:
            p.add_argument("model", help=MODEL_HELP)
        p.add_argument("--board", required=True, help="host, or a board id from boards/")
        p.add_argument("--out", metavar="DIR", help="build directory (mcugen writes nothing outside it)")
        p.add_argument("--stock", action="store_true",
                       help="use the board's stock PlatformIO platform and framework (needs internet once)")
        if model:
            outputs_arg(p)
            p.add_argument("--tune", action="store_true",
                           help="measure each layer's kernels on the emulated core and keep the fastest")
            p.add_argument("--sanitize", action="store_true",
                           help="host only: build with -fsanitize=address,undefined")
            region_args(p)

    def harness_arg(p):
        p.add_argument("--harness", choices=("mcugen", "mlperf-tiny"), default="mcugen",
                       help="the protocol the firmware speaks: mcugen's validation (mcugen test), or the MLPerf "
                            "Tiny benchmark's DUT protocol, for its runner (mlcommons/tiny benchmark/runner)")

    p = sub.add_parser("build", help="generate C for a model and compile it for a board")
    board_args(p)
    harness_arg(p)
    p.add_argument("--report", action="store_true", help="print the arena timeline and draw it (DIR/report/)")
    p.add_argument("--estimate", action="store_true",
                   help="estimate one inference's cycles on the board's core: run it once on QEMU with every "
                        "instruction logged and costed by the core's model, at zero wait states and with the "
                        "board's flash timing where its file gives one")
    p.add_argument("--json", metavar="REPORT", help="write sizes, kernels, per-layer MACs and the arena plan here")
    p.add_argument("--html", metavar="PAGE", help="write the same as one HTML page (sizes, layers, the arena drawn)")
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing JSON report or page, and generated files you changed since the build")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("export", help="write the model as a C library for your own firmware")
    p.add_argument("model", help=MODEL_HELP)
    p.add_argument("--name", required=True, help="prefix of the API (NAME_invoke, NAME_ARENA_BYTES) and file names")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the library (mcugen writes nothing else)")
    p.add_argument("--force", action="store_true", help="overwrite generated files you changed since the last export")
    p.add_argument("--format", choices=FORMATS, default="plain",
                   help="plain files, a CMake library, a PlatformIO library (lib/), an Arduino library or a Zephyr "
                        "module with a sample")
    p.add_argument("--board", help="pick the kernels for this board (the DSP ones on cores with DSP) and check "
                                   "the model fits it")
    p.add_argument("--static-arena", action="store_true",
                   help="the library owns its arena (a static array) instead of taking the caller's")
    p.add_argument("--harness", choices=("mcugen", "mlperf-tiny"), default="mcugen",
                   help="mlperf-tiny: add the MLPerf Tiny DUT harness (mcu_harness_run) for your port "
                        "(mcu_port.h) to call; mcugen (default): the library alone")
    outputs_arg(p)
    region_args(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("test", help="build, run on the board and compare with the golden model bit for bit",
                       description=STEPS_HELP + ", on the board as in the golden model.")
    board_args(p)
    p.add_argument("--samples", type=arguments.sample_count, default=3,
                   help="how many random inputs to validate when --data gives none (default 3)")
    p.add_argument("--reset-every", type=arguments.sample_count, metavar="K",
                   help="reset the model's state (on the board and in the golden model) before every K-th step")
    p.add_argument("--seed", type=int, default=0, help="the random inputs' seed (default 0)")
    p.add_argument("--data", help=DATA_HELP)
    p.add_argument("--labels", metavar="LABELS",
                   help=".npy of one class index per --data sample (or one-hot rows): report top-1 accuracy, "
                        "a confusion matrix and ACC/RMSE/MAE/L2r/COS per output")
    p.add_argument("--reference", metavar="FLOAT.tflite",
                   help="the float model this one was quantized from: run on the same samples (by the golden "
                        "model), its outputs compared with the target's and its top-1 with --labels")
    p.add_argument("--json", metavar="REPORT", help="write a JSON report here")
    p.add_argument("--html", metavar="PAGE", help="write one HTML page: latency, sizes against the board's, "
                                                  "per-layer time by kernel, the arena drawn, accuracy, per-class "
                                                  "precision/recall/F1 and confusion matrix (with --labels), the "
                                                  "float model's (with --reference)")
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing JSON report or page, and generated files you changed since the build")
    p.add_argument("--profile", action="store_true", help="also read per-layer timings")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds one inference may take")
    p.add_argument("--port", help="serial port of a real board (or socket://host:port)")
    p.add_argument("--jobs", type=arguments.job_count, default=1, metavar="N",
                   help="run N targets at once (--cluster local:N: host processes or QEMU instances of the one "
                        "firmware), each taking contiguous parts of the samples; the report is one target's")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="validate on a Dask cluster (the cluster extra): tcp://HOST:PORT of a scheduler you "
                        "started, or local[:N]; a worker with --resources BOARD=1 (and MCUGEN_PORT) takes that "
                        "board's samples")
    p.add_argument("--shard", type=arguments.shard, metavar="K/N",
                   help="validate only the K-th of N slices of the samples (K = 1..N); `mcugen report merge` "
                        "joins the N reports (--json) into the report of the whole run")
    p.add_argument("--layers", action="store_true",
                   help="compare every layer's output on the board, naming the first layer that differs (each "
                        "layer's output is kept as an output: no layer runs fused or in place, the arena grows)")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("report", help="work with test reports")
    actions = p.add_subparsers(dest="action", required=True)
    m = actions.add_parser("merge", help="join the --json reports of the shards of one run (mcugen test --shard)")
    m.add_argument("reports", nargs="+", metavar="REPORT.json", help="the shards' reports, in any order")
    m.add_argument("--json", metavar="REPORT", required=True, help="write the merged report here")
    m.add_argument("--force", action="store_true", help="overwrite an existing report")
    m.set_defaults(func=cmd_report_merge)
    h = actions.add_parser("html", help="draw a test or build report (--json) as one self-contained HTML page")
    h.add_argument("report", metavar="REPORT.json", help="a `mcugen test --json` or `mcugen build --json` report")
    h.add_argument("--build", metavar="BUILD.json", help="the build report of the same model and board, for the "
                                                          "arena picture and sizes beside a test report")
    h.add_argument("--out", required=True, metavar="PAGE.html", help="where to write the page")
    h.add_argument("--force", action="store_true", help="overwrite an existing page")
    h.set_defaults(func=cmd_report_html)

    p = sub.add_parser("flash", help="put a built firmware on the board (emulated boards: boot it in QEMU)")
    board_args(p, model=False)
    p.add_argument("--port", help="serial port of the board, e.g. /dev/ttyACM0")
    p.add_argument("--serial", type=arguments.serial, metavar="pty|tcp[:PORT]", help="emulated UART boards: QEMU keeps "
                   "running, the UART on a pseudo-terminal (for the MLPerf Tiny runner) or a TCP port, until Ctrl-C")
    p.set_defaults(func=cmd_flash)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    dumping = os.environ.get(DUMP_ENV)
    if args.dump_ir:
        os.environ[DUMP_ENV] = str(Path(args.dump_ir).resolve())  # the child processes' passes write there too
    from mcugen.codegen.outdir import release_locks

    try:
        if getattr(args, "ops", None):
            from mcugen.ops.custom import load_ops

            load_ops(args.ops)
        return args.func(args)
    except McugenError as exc:
        print(f"mcugen: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("mcugen: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # stdout closed early (| head): nothing left to say
        sys.stderr.close()
        return 141
    except Exception as exc:  # noqa: BLE001 - one line instead of a traceback; MCUGEN_DEBUG=1 shows it
        if os.environ.get("MCUGEN_DEBUG"):
            raise
        print(f"mcugen: internal error ({type(exc).__name__}: {exc}); rerun with MCUGEN_DEBUG=1 "
              "and report it with the model", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if args.dump_ir and dumping is None:  # as it was: main() may be called again in this process
            os.environ.pop(DUMP_ENV, None)
        elif args.dump_ir and dumping is not None:
            os.environ[DUMP_ENV] = dumping
        release_locks()
        if getattr(args, "ops", None):
            from mcugen.ops.custom import forget_ops

            forget_ops()
