"""The `mcugen` subcommands, one module per family; mcugen/commands/cli.py parses the command line and calls them.

Imports: errors, runtime, ir, numerics, frontend, ops, kernels, passes, codegen, targets, validation, quantize
(all below it).
"""
