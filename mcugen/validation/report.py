"""Pictures for people: the arena over time (and, on boards, time per layer)."""
from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence
from pathlib import Path

from mcugen.ir.graph import Compiled, Graph
from mcugen.codegen.outdir import OutDir
from mcugen.ir.planner import Buffer, Plan


def _pixels(ax, x0: float, x1: float, y0: float, y1: float) -> tuple[float, float]:
    (px0, py0), (px1, py1) = ax.transData.transform([(x0, y0), (x1, y1)])
    return abs(px1 - px0), abs(py1 - py0)


def _draw_buffer(ax, b: Buffer, off: int, k: int, top: int, color, dpi: float) -> None:
    """One buffer's bar (a buffer that shrinks, a smaller tensor in place over a larger one, as the bytes it
    holds step by step), named inside its first part when the name fits, else by its number, else not at all."""
    font = 7
    char_w, char_h = 0.62 * font * dpi / 72, 1.25 * font * dpi / 72
    x0, height = b.first - 0.45, max(b.size, top * 0.008)
    ends = [at - 0.5 for at, _ in b.shrinks] + [b.last + 0.45]
    for start, end, size in zip([x0] + ends[:-1], ends, [b.size] + [n for _, n in b.shrinks]):
        ax.broken_barh([(start, end - start)], (off, max(size, top * 0.008)), facecolors=color, edgecolor="black",
                       linewidth=0.4)
    width = ends[0] - x0
    w_px, h_px = _pixels(ax, x0, x0 + width, off, off + height)
    for text in (b.name, str(k)):
        if h_px >= char_h and w_px >= char_w * (len(text) + 1):
            ax.text(x0 + width / 2, off + height / 2, text, ha="center", va="center", fontsize=font, clip_on=True)
            return


def arena_figure(g: Compiled, plan: Plan | None = None, region: str = ""):
    """The arena plan (or its part in one memory region) as a picture: one bar per buffer (steps across,
    bytes up), each named inside its bar when the name fits, else by its number, else not at all; the
    legend on the right maps numbers to names. Tiny buffers get a minimum height so they stay visible. Below, the bytes live
    at each step, with the peak marked: the step that sets the arena's size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plan = g.arena.plan if plan is None else plan
    steps = len(g.ops)
    fig = plt.figure(figsize=(13, 7.5), dpi=110)
    ax = fig.add_axes((0.07, 0.34, 0.62, 0.58))
    live_ax = fig.add_axes((0.07, 0.07, 0.62, 0.18), sharex=ax)
    top = max(plan.size, 1)
    ax.set_xlim(-0.6, steps - 0.4)
    ax.set_ylim(0, top)
    colors = plt.get_cmap("tab20")
    legend = []
    for k, (b, off) in enumerate(zip(plan.buffers, plan.offsets)):
        _draw_buffer(ax, b, off, k, top, colors(k % 20), fig.dpi)
        legend.append(f"{k:>3} {b.name[:28]:<28} {b.size:>9,} B  {b.first}..{b.last}"
                      + "".join(f", {n:,} B from {at}" for at, n in b.shrinks))
    live = [0] * steps
    extent = [0] * steps
    for b, off in zip(plan.buffers, plan.offsets):
        for step in range(max(b.first, 0), min(b.last, steps - 1) + 1):
            live[step] += b.size_at(step)
            extent[step] = max(extent[step], off + b.size_at(step))
    peak = max(range(steps), key=lambda s: (extent[s], live[s])) if steps else 0
    if steps:
        ax.axvline(peak, color="black", linestyle="--", linewidth=0.8)
        ax.annotate(f"peak: {extent[peak]:,} B at step {peak} ({g.ops[peak].opcode})", xy=(peak, top),
                    xytext=(4, -12), textcoords="offset points", fontsize=8, fontweight="bold")
    ax.set_ylabel("arena offset (bytes)")
    where = f" in {region}" if region else ""
    ax.set_title(f"{g.name}: arena{where} {plan.size:,} B, {len(plan.buffers)} buffers ({plan.strategy})")
    live_ax.step(range(steps), live, where="mid", color="tab:blue", label="bytes live")
    live_ax.step(range(steps), extent, where="mid", color="tab:red", linestyle=":", label="highest byte used")
    if steps:
        live_ax.plot([peak], [extent[peak]], "o", color="tab:red")
    live_ax.set_xlabel("step (op index)")
    live_ax.set_ylabel("bytes")
    live_ax.legend(fontsize=7, loc="upper right")
    rows = 58
    shown = legend if len(legend) <= rows else legend[:rows - 1] + [f"... {len(legend) - rows + 1} more in "
                                                                     "arena_timeline.txt"]
    fig.text(0.71, 0.92, "  #  buffer" + " " * 22 + "bytes  steps\n" + "\n".join(shown), family="monospace",
             fontsize=6.5 if len(shown) <= 40 else 5, va="top")
    return fig


def write_report(g: Compiled, out: OutDir) -> list[Path]:
    import matplotlib.pyplot as plt

    plan = g.arena.plan
    written = [out.write("report/arena_timeline.txt", plan.timeline() + "\n")]
    # one picture per memory region: arena.png for the main arena, arena_<region>.png for the others
    parts = [(name, plan.in_region(name)) for name, _ in plan.region_sizes] or [("", plan)]
    for k, (name, part) in enumerate(parts):
        fig = arena_figure(g, part, name)
        png = io.BytesIO()
        fig.savefig(png, format="png")
        plt.close(fig)
        written.append(out.write(f"report/arena_{name.lower()}.png" if k else "report/arena.png", png.getvalue()))
    if g.banded is not None and g.banded.rows:
        fig = bands_figure(g)
        png = io.BytesIO()
        fig.savefig(png, format="png")
        plt.close(fig)
        written.append(out.write("report/patches.png", png.getvalue()))
    return written


def bands_figure(g: Compiled):
    """Patch-based inference as a picture: a column per layer of the stage, its output's rows down (each column
    its own height, drawn to one scale), each band's rows a translucent bar in the band's colour; where bars
    overlap, a band recomputes rows its neighbour computed too. With patches of columns, a second panel draws
    a band's patches over each layer's columns the same way. The title says the arena and MACs against the
    whole-tensor run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mcugen.codegen.build import describe_banding

    b = g.banded
    assert b is not None
    panels = [(b.rows, "band", "rows")] + ([(b.cols, "patch", "columns")] if b.cols else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(max(6.0, 0.55 * len(b.rows) + 2) * len(panels), 5.2),
                             dpi=110, squeeze=False)
    for ax, (spans, part, what) in zip(axes[0], panels):
        _spans_panel(ax, plt, spans, part, what)
    fig.suptitle("\n".join(textwrap.wrap(describe_banding(g), 110 * len(panels))), fontsize=8)
    fig.tight_layout()
    return fig


def _spans_panel(ax, plt, spans, part: str, what: str) -> None:
    """One axis of the patches: each layer's output extent down, each part's span a bar in its colour."""
    colors = plt.get_cmap("tab10")
    count = len(spans[0][3]) if spans else 0
    for x, (_, _, size, parts) in enumerate(spans):
        ax.add_patch(plt.Rectangle((x - 0.4, 0), 0.8, 1, fill=False, edgecolor="black", linewidth=0.5))
        for k, (first, stop) in enumerate(parts):
            ax.add_patch(plt.Rectangle((x - 0.4 + 0.8 * k / len(parts), first / size), 0.8 / len(parts),
                                       (stop - first) / size, facecolor=colors(k % 10), alpha=0.75))
    ax.set_xlim(-0.6, len(spans) - 0.4)
    ax.set_ylim(1.02, -0.02)
    ax.set_xticks(range(len(spans)), [f"{origin} {opcode}\n{size} {what}" for origin, opcode, size, _ in spans],
                  rotation=90, fontsize=7)
    ax.set_yticks([0, 0.5, 1], ["first", "middle", "last"], fontsize=8)
    ax.set_title(f"{what}: each {part}'s", fontsize=8)
    ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, facecolor=colors(k % 10), alpha=0.75) for k in range(count)],
              labels=[f"{part} {k}" for k in range(count)], loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)


def layer_table(g: Graph, layer_cycles: list[list[int]], clock: str, estimate=None, ms: Sequence[float] = ()) -> str:
    """Per-layer time, averaged over samples, largest share first marked with bars; with an
    estimate (mcugen/validation/cycles.py), each layer's estimated cycles and cycles per instruction too;
    `ms`: each layer's milliseconds at the board's clock (the test report's)."""
    import numpy as np

    mean = np.mean(np.array(layer_cycles, dtype=np.float64), axis=0)
    total = max(mean.sum(), 1.0)
    extra = f" {'est. cycles':>14} {'CPI':>5}" if estimate else ""
    head = f" {'ms':>9}" if ms else ""
    lines = [f"  {'layer':<28} {clock:>14}{extra}{head}  share"]
    for k, (op, t) in enumerate(zip(g.ops, mean)):
        if estimate:
            n, c = estimate.layer_instructions[k], estimate.layers[k]
            extra = f" {c:>14,} {c / n if n else 0:>5.2f}"
        at = f" {ms[k]:>9.3f}" if ms else ""
        lines.append(f"  {op.origin:>3} {op.opcode:<24} {t:>14,.0f}{extra}{at}  {t / total:6.1%} "
                     f"{'#' * int(40 * t / total)}")
    if estimate:
        t = estimate.timing
        lines.append(f"  estimated cycles: {estimate.cycles:,} for {estimate.instructions:,} instructions (CPI "
                     f"{estimate.cycles / max(estimate.instructions, 1):.2f}; the core's model with zero wait states, "
                     f"taken branch +{t.refill}, divide {t.divide})")
    return "\n".join(lines)


def write_layer_picture(g: Graph, layer_cycles: list[list[int]], clock: str, path: Path, estimate=None) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    mean = np.mean(np.array(layer_cycles, dtype=np.float64), axis=0)
    fig, ax = plt.subplots(figsize=(10, 0.28 * len(g.ops) + 1.2))
    labels = [f"{op.origin} {op.opcode}" for op in g.ops]
    rows = np.arange(len(mean))
    if estimate:
        ax.barh(rows - 0.2, mean, height=0.4, color="tab:blue", label=f"{clock} (mean of {len(layer_cycles)})")
        ax.barh(rows + 0.2, estimate.layers, height=0.4, color="tab:orange", label="estimated cycles")
        ax.legend(loc="lower right", fontsize=8)
        ax.set_xlabel("per inference")
    else:
        ax.barh(rows, mean, color="tab:blue")
        ax.set_xlabel(f"{clock} per inference (mean of {len(layer_cycles)} samples)")
    ax.set_yticks(rows, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_title(f"{g.name}: time per layer")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
