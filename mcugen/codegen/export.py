"""`mcugen export`: a model as a C library for the user's own firmware.

The files are those `mcugen build` compiles (build.library_files: NAME.h, NAME.c, the kernels the
model calls, renamed after it), laid out for one build system:

  plain       every file in one folder
  cmake       CMakeLists.txt (target NAME), include/NAME.h, src/...
  platformio  library.json, include/NAME.h, src/... (drop the folder into lib/)
  arduino     library.properties, src/..., examples/NAME_demo/NAME_demo.ino
  zephyr      a Zephyr module: zephyr/module.yml, CMakeLists.txt and Kconfig (CONFIG_MCUGEN_NAME),
              include/NAME.h, src/..., and samples/NAME_demo (west build -b BOARD samples/NAME_demo)

Nothing in them depends on the machine, the folder or the time: the same model and options give
byte-identical files.
"""
from __future__ import annotations

from pathlib import Path

import jinja2

from mcugen import __version__
from mcugen.codegen.build import Harness, library_files
from mcugen.codegen.emit_c import GeneratedC
from mcugen.ir.graph import Compiled
from mcugen.codegen.outdir import OutDir

FORMATS = ("plain", "cmake", "platformio", "arduino", "zephyr")
_ENV = jinja2.Environment(loader=jinja2.PackageLoader("mcugen", "templates/export"), keep_trailing_newline=True,
                          undefined=jinja2.StrictUndefined, autoescape=False)


def _layout(fmt: str, name: str, file: str) -> str:
    """Where one library file goes in a format's folder."""
    if fmt == "plain":
        return file
    if fmt in ("cmake", "platformio", "zephyr") and file in (f"{name}.h", "mcu_port.h"):  # what the app includes
        return f"include/{file}"
    return f"src/{file}"


def export_library(g: Compiled, out: OutDir, generated: GeneratedC, model_name: str, fmt: str, *,
                   features: frozenset[str] = frozenset(), harness: Harness | None = None) -> None:
    """Write `generated` (emit_c's output for g) with its kernels in the layout of `fmt`; with a
    `harness` (--harness mlperf-tiny), its source and headers too, for the application's port to call
    (mcu_port.h: the byte stream and the counter it implements, then mcu_harness_run())."""
    name = generated.name
    files = library_files(generated, features)
    if harness is not None:
        from mcugen.codegen.emit_c import DTYPE_CODES
        from mcugen.codegen.mlperf import model_alias
        from mcugen.runtime import runtime_file

        files = {**files, **{f: runtime_file(f"harness/{f}").read_text() for f in harness.files},
                 "mcu_port.h": runtime_file("harness/mcu_port.h").read_text(), "mcu_harness_config.h": harness.config,
                 **({} if name == "model" else {"model.h": model_alias(name, DTYPE_CODES)})}
    for file, text in files.items():
        out.write(_layout(fmt, name, file), text)
    context = dict(version=__version__, n=name, N=name.upper(), model_name=model_name,
                   arena_bytes=g.arena.plan.size, sources=sorted(f for f in files if f.endswith(".c")))
    if fmt == "cmake":
        out.write("CMakeLists.txt", _ENV.get_template("CMakeLists.txt.j2").render(context))
    elif fmt == "platformio":
        out.write("library.json", _ENV.get_template("library.json.j2").render(context))
    elif fmt == "arduino":
        out.write("library.properties", _ENV.get_template("library.properties.j2").render(context))
        out.write(f"examples/{name}_demo/{name}_demo.ino", _ENV.get_template("example.ino.j2").render(context))
    elif fmt == "zephyr":
        sample = f"samples/{name}_demo"
        for template, path in (("module.yml", "zephyr/module.yml"), ("CMakeLists.txt", "CMakeLists.txt"),
                               ("Kconfig", "Kconfig"), ("sample_CMakeLists.txt", f"{sample}/CMakeLists.txt"),
                               ("prj.conf", f"{sample}/prj.conf"), ("sample.yaml", f"{sample}/sample.yaml"),
                               ("main.c", f"{sample}/src/main.c")):
            out.write(path, _ENV.get_template(f"zephyr/{template}.j2").render(context))
    out.finish()


def exported_files(root: Path) -> list[Path]:
    """The files of an export, for listing them to the user."""
    return sorted(p for p in Path(root).rglob("*") if p.is_file() and not p.name.startswith("."))
