"""The intermediate representation every pass reads and returns, and the data it carries.

graph.py: Graph, Tensor, Op (one subgraph in execution order) and its text form; calls.py: what a
kernel call is made of (constants, structs, arena slices); lowering.py: the helpers op modules build
calls with; planner.py: the arena plan (lifetimes to offsets; it knows no Graph); tuning.py: what
--tune measured, as data; dump.py: the IR after every pass, as text (--dump-ir).

Imports: errors, runtime.
"""
