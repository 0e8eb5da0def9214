"""Pictures for people: the arena over time (and, on boards, time per layer)."""
from __future__ import annotations

import io
from pathlib import Path

from mcugen.ir import Graph
from mcugen.outdir import OutDir


def write_report(g: Graph, out: OutDir) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plan = g.arena.plan
    timeline = out.write("report/arena_timeline.txt", plan.timeline() + "\n")

    fig, ax = plt.subplots(figsize=(10, 5))
    colors = plt.get_cmap("tab20")
    for k, (b, off) in enumerate(zip(plan.buffers, plan.offsets)):
        ax.broken_barh([(b.first - 0.45, b.last - b.first + 0.9)], (off, b.size),
                       facecolors=colors(k % 20), edgecolor="black", linewidth=0.4)
        if b.size > plan.size * 0.04:
            ax.text(b.first - 0.4, off + b.size / 2, b.name, va="center", fontsize=7)
    ax.set_xlabel("step (op index)")
    ax.set_ylabel("arena offset (bytes)")
    ax.set_ylim(0, max(plan.size, 1))
    ax.set_xlim(-0.6, len(g.ops) + 0.6)
    ax.set_title(f"{g.name}: arena {plan.size:,} B, {len(plan.buffers)} buffers ({plan.strategy})")
    png = io.BytesIO()
    fig.tight_layout()
    fig.savefig(png, format="png", dpi=110)
    plt.close(fig)
    picture = out.write("report/arena.png", png.getvalue())
    return [timeline, picture]


def layer_table(g: Graph, layer_cycles: list[list[int]], clock: str) -> str:
    """Per-layer time, averaged over samples, largest share first marked with bars."""
    import numpy as np

    mean = np.mean(np.array(layer_cycles, dtype=np.float64), axis=0)
    total = max(mean.sum(), 1.0)
    lines = [f"  {'layer':<28} {clock:>14}  share"]
    for op, t in zip(g.ops, mean):
        lines.append(f"  {op.origin:>3} {op.opcode:<24} {t:>14,.0f}  {t / total:6.1%} {'#' * int(40 * t / total)}")
    return "\n".join(lines)


def write_layer_picture(g: Graph, layer_cycles: list[list[int]], clock: str, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    mean = np.mean(np.array(layer_cycles, dtype=np.float64), axis=0)
    fig, ax = plt.subplots(figsize=(10, 0.28 * len(g.ops) + 1.2))
    labels = [f"{op.origin} {op.opcode}" for op in g.ops]
    ax.barh(range(len(mean)), mean, color="tab:blue")
    ax.set_yticks(range(len(mean)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{clock} per inference (mean of {len(layer_cycles)} samples)")
    ax.set_title(f"{g.name}: time per layer")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
