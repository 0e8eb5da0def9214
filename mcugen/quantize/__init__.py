"""From the user's float model to an integer one: `mcugen quantize`.

Google's LiteRT quantizer (ai-edge-quantizer, `pip install 'mcugen[quantize]'`) calibrates the float
model and rewrites it; mcugen writes nothing a quantizer does. What mcugen adds is what it knows:
- model.py: the float model as the quantizer takes it (a signature, float32 weights) and its layers;
- recipe.py: each layer's precision (int8, 16x8, int4 weights, float32) as a recipe, the quantized
  model checked with TFLM and with the golden model before anyone sees it, the model's ends retyped;
- measure.py: each layer's error against the float model, accuracy on labelled data;
- search.py: per-layer precision chosen by measured accuracy and measured cost on the user's board.

Imports: errors, ir, frontend, ops, codegen, targets, validation.
"""
