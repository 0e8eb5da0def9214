"""One self-contained HTML page from a test report and/or a build report (mcugen/schemas/): what a person
would rather look at than JSON. The per-layer profile (bars of estimated cycles, or the board's time, one
colour per kernel, and the same summed by kernel), the arena over time (one rectangle per buffer: steps
across, offsets up, per memory region), sizes, and accuracy with its confusion matrix when the run was
labelled. Pictures are inline SVG drawn here; no script, stylesheet or font is fetched, so the file opens
anywhere (mailed, archived, offline)."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import jinja2

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac", "#1f77b4", "#8c564b")

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("mcugen", "templates"), autoescape=True,
                          undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    kernel: str


def render(test: dict | None, build: dict | None) -> str:
    """The page; either report may be absent (a build has no timings, a test report alone has its layers'
    kernels and times but no arena plan)."""
    if test is None and build is None:
        raise ValueError("nothing to render")
    head = test or build or {}
    # a test report has per-layer entries only when profiled
    layers = (test or {}).get("layers") or (build or {}).get("layers") or []
    colours = _kernel_colours(layers)
    profile = _profile(test, layers) if test and test.get("layers") else None
    return _ENV.get_template("report.html.j2").render(
        model=head.get("model", "?"), sha=head.get("model_sha256", ""), board=head.get("board", "?"),
        version=head.get("mcugen_version", "?"), test=test, build=build, sizes=_sizes(test, build),
        profile=profile, profile_svg=_bars_svg(profile[1], colours) if profile else "",
        kernel_svg=_bars_svg(_by_kernel(profile[1]), colours) if profile else "",
        colours=sorted(colours.items()), arena_svgs=_arena_svgs(build) if build else [],
        layers=_layer_rows(layers, build), confusion=_confusion(test) if test else None,
        card=_card(test, build), metrics=_metric_rows(test) if test else [],
        per_class=(test.get("accuracy") or {}).get("per_class") if test else None,
        reference=test.get("reference") if test else None)


def _card(test: dict | None, build: dict | None) -> list[tuple[str, str, str]]:
    """The summary's (label, value, detail) cells: verdict, latency, arena, flash and RAM against the board's."""
    from mcugen.errors import McugenError
    from mcugen.targets.boards import load_board

    cells = []
    if test:
        total = test["passed"] + test["failed"]
        cells.append(("outputs", "bit-exact" if not test["failed"] else f"{test['failed']} of {total} differ",
                      f"{total} sample(s), {test['oracle']}"))
        cells.append(("latency", f"{test['inference']['ms']['median']:.3g} ms", test["inference"]["ms_from"]))
    elif build and build.get("estimate"):
        cells.append(("latency", f"{build['estimate']['ms']:.3g} ms", "estimated cycles at the board's clock"))
    acc = (test or {}).get("accuracy")
    if acc:
        cells.append(("top-1 accuracy", f"{acc['top1_target']:.2%}", f"on {acc['samples']} labelled sample(s)"))
    reference = (test or {}).get("reference")
    if reference and reference["top1"] is not None:
        cells.append(("float model", f"{reference['top1']:.2%}", reference["model"]))
    try:
        board = load_board(build["board"]) if build and build["board"] != "host" else None
    except McugenError:  # a report of a board this installation does not know
        board = None
    if build:
        cells.append(("arena", f"{build['arena_bytes']:,} B", _share_of(build["arena_bytes"], board.ram.bytes)
                      if board else "activations and state"))
    firmware = (build or {}).get("firmware")
    if firmware and board:
        cells.append(("flash", f"{firmware['flash_bytes']:,} B", _share_of(firmware["flash_bytes"], board.flash.bytes)))
        cells.append(("RAM", f"{firmware['ram_bytes']:,} B", _share_of(firmware["ram_bytes"], board.ram.bytes)))
    return cells


def _share_of(used: int, size: int) -> str:
    return f"{100 * used / size:.3g}% of the board's {size:,} B"


def _metric_rows(test: dict) -> list[tuple[str, str, dict]]:
    """(output, against, metrics) rows: output 0 against the labels, each output against the float model and
    against the golden model."""
    rows = []
    acc = test.get("accuracy")
    if acc:
        rows.append((test["output_names"][0], "labels (one-hot)", acc["vs_labels"]))
    for against, metrics in (("float model", (test.get("reference") or {}).get("metrics", [])),
                             ("golden model", test.get("metrics", []))):
        rows += [(m["name"], against, m) for m in metrics]
    return rows


def _layer_rows(layers: list[dict], build: dict | None) -> list[dict]:
    """Each layer with the arena bytes live while it runs (its RAM), where the build's plan tells."""
    buffers = ((build or {}).get("arena") or {}).get("buffers")
    if not buffers:
        return layers
    return [dict(layer, ram=sum(b["bytes"] for b in buffers if b["first_step"] <= k <= b["last_step"]))
            for k, layer in enumerate(layers)]


def _kernel_colours(layers: list[dict]) -> dict[str, str]:
    kernels = sorted({layer.get("kernel") or "(no call)" for layer in layers})
    return {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(kernels)}


def _profile(test: dict, layers: list[dict]) -> tuple[str, list[Bar]] | None:
    """(unit, one bar per layer): estimated cycles where the run estimated them, else the median time."""
    estimate = test.get("estimated_cycles") or {}
    per_layer = estimate.get("layer_cycles")
    unit = "estimated cycles"
    if not per_layer:
        per_layer = [(layer.get("time") or {}).get("median") for layer in layers]
        unit = test.get("time_unit") or "time"
    if not layers or any(v is None for v in per_layer):
        return None
    return unit, [Bar(f"{layer['index']} {layer['op']}", float(v), layer.get("kernel") or "(no call)")
                  for layer, v in zip(layers, per_layer)]


def _by_kernel(bars: list[Bar]) -> list[Bar]:
    totals: dict[str, float] = {}
    for b in bars:
        totals[b.kernel] = totals.get(b.kernel, 0.0) + b.value
    return [Bar(k, v, k) for k, v in sorted(totals.items(), key=lambda kv: -kv[1])]


def _bars_svg(bars: list[Bar], colours: dict[str, str]) -> str:
    """Horizontal bars, each labelled with its value and share of the total."""
    row, label_w, bar_w = 20, 260, 520
    total = sum(b.value for b in bars) or 1.0
    top = max((b.value for b in bars), default=1.0) or 1.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="{label_w + bar_w + 170}" '
             f'height="{row * len(bars) + 10}" role="img">']
    for k, b in enumerate(bars):
        y, w = 5 + k * row, max(bar_w * b.value / top, 1.0)
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{escape(b.label[:40])}</text>'
                     f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 5}" '
                     f'fill="{colours.get(b.kernel, "#999")}"><title>{escape(b.kernel)}</title></rect>'
                     f'<text x="{label_w + w + 6:.1f}" y="{y + 14}">{b.value:,.0f} ({b.value / total:.1%})</text>')
    parts.append("</svg>")
    return "".join(parts)


def _arena_svgs(build: dict) -> list[tuple[str, int, str]]:
    """(region, bytes, picture) per memory region of the arena plan."""
    arena = build.get("arena") or {}
    buffers, layers = arena.get("buffers", []), build.get("layers", [])
    steps = max([len(layers)] + [b["last_step"] + 1 for b in buffers])
    out = []
    for region in arena.get("regions", []) or [{"name": "", "bytes": build.get("arena_bytes", 0)}]:
        mine = [b for b in buffers if b.get("region", "") == region["name"] or not region["name"]]
        size = max([region["bytes"]] + [b["offset"] + b["bytes"] for b in mine]) or 1
        width, height, left = 760, 300, 60
        dx, dy = (width - left) / max(steps, 1), height / size
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="arena" width="{width + 10}" height="{height + 40}" '
                 f'role="img"><rect x="{left}" y="0" width="{width - left}" height="{height}" fill="#f7f7f7"/>']
        for k, b in enumerate(mine):
            x, w = left + b["first_step"] * dx + 1, max((b["last_step"] - b["first_step"] + 1) * dx - 2, 1.0)
            y, h = height - (b["offset"] + b["bytes"]) * dy, max(b["bytes"] * dy, 1.0)
            parts.append(f'<rect class="buffer" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                         f'fill="{PALETTE[k % len(PALETTE)]}" stroke="#333" stroke-width="0.5"><title>'
                         f'{escape(b["name"])}: {b["bytes"]:,} B at {b["offset"]:,}, steps {b["first_step"]}..'
                         f'{b["last_step"]}</title></rect>')
            if h >= 12 and w >= 7 * len(b["name"][:24]):
                parts.append(f'<text x="{x + w / 2:.1f}" y="{y + h / 2 + 4:.1f}" text-anchor="middle">'
                             f'{escape(b["name"][:24])}</text>')
        parts.append(f'<text x="{left - 4}" y="12" text-anchor="end">{size:,}</text>'
                     f'<text x="{left - 4}" y="{height}" text-anchor="end">0</text>'
                     f'<text x="{left}" y="{height + 16}">step 0</text>'
                     f'<text x="{width}" y="{height + 16}" text-anchor="end">step {steps - 1}</text>'
                     f'<text x="{left + (width - left) / 2:.0f}" y="{height + 34}" text-anchor="middle">'
                     f'layer (step) across, arena offset (bytes) up</text></svg>')
        out.append((region["name"], region["bytes"], "".join(parts)))
    return out


def _sizes(test: dict | None, build: dict | None) -> list[tuple[str, str]]:
    rows = []
    if build:
        rows += [("arena", f"{build['arena_bytes']:,} B"), ("constants (weights in their kernels' layouts)",
                                                             f"{build['constants_bytes']:,} B"),
                 ("weights in the model file", f"{build['weights_bytes']:,} B"),
                 ("code: model / kernels", f"{build['code_bytes']['model']:,} B / {build['code_bytes']['kernels']:,} B"),
                 ("MACs per inference", f"{build['macs']:,}")]
        firmware = build.get("firmware") or {}
        rows += [(f"firmware {k.replace('_bytes', '')}", f"{v:,} B") for k, v in firmware.items() if k != "board"]
        if firmware and firmware["board"] != build["board"]:
            rows.append(("firmware linked for", f"{firmware['board']} (the board's emulated twin)"))
        estimate = build.get("estimate")
        if estimate:
            rows.append((f"estimated cycles (on {estimate['on']}, zero wait states)", f"{estimate['cycles']:,}"))
            if estimate["cycles_with_flash_timing"] is not None:
                rows.append(("... with the board's flash timing", f"{estimate['cycles_with_flash_timing']:,}"))
            rows.append(("one inference at the board's clock", f"{estimate['ms']:.2f} ms"))
    elif test:
        rows += [(k.replace("_bytes", ""), f"{v:,} B") for k, v in (test.get("sizes") or {}).items()]
    return rows


def _confusion(test: dict) -> dict | None:
    acc = test.get("accuracy")
    if not acc or not acc.get("confusion"):
        return None
    matrix = acc["confusion"]
    peak = max((v for row in matrix for v in row), default=1) or 1
    cells = [[(v, f"rgba(78, 121, 167, {0.08 + 0.92 * v / peak:.2f})" if v else "#fff") for v in row]
             for row in matrix]
    return dict(cells=cells, classes=len(matrix), top1=acc.get("top1_target"), golden=acc.get("top1_golden"),
                samples=acc.get("samples"))
