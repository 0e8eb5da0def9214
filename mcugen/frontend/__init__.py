"""Reading a model: the FlatBuffer checked whole (check_flatbuffer.py), parsed into a Graph
(read_tflite.py, the pipeline's first pass), and as LiteRT's object tree for the few places mcugen
rewrites a file (model_object.py).

Imports: errors, ir.
"""
