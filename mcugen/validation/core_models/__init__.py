"""Cycle models, one file per core and named after it (cortex-m4: cortex_m4.py), read by
mcugen/validation/cycles.py. Each has FIELDS, the numbers it keeps per instruction; describe(insn,
timing), those numbers for one decoded instruction; and costs(columns, before2, before, now, jumped,
timing, carried), each executed instruction's cycles, vectorised over a stretch of the trace (the rows
of the instruction, and of the two before it, -1 where unknown; `carried` is what the model keeps from
one stretch to the next). Its docstring states the timing it follows and every assumption.
"""
