"""Graph -> Graph passes, one per file, named verb_noun; codegen/pipeline.py lists their order.

Imports: errors, ir, ops, kernels.
"""
