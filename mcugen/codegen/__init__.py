"""From a model file to C: the pipeline (pipeline.py, every pass in order), the C it renders
(emit_c.py), the build directory it writes (build.py, outdir.py: never over files it did not write),
the library export per build system (export.py), the MLPerf Tiny harness's config (mlperf.py), and section
sizes of what the compiler made (elfsize.py).

Imports: errors, runtime, ir, frontend, ops, kernels, passes (and mcugen's version).
"""
