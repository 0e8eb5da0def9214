"""TFLM's integer arithmetic in numpy, bit for bit: requantization (requant.py), gemmlowp's fixed-point
transcendentals (fixedpoint.py), int16 lookup tables (lut16.py, sigmoid16.py), KISS FFT's real FFT
(kiss_fft.py) and the golden conv / FC epilogue (epilogue.py). The C twins are in runtime_c/include/mcu_nn_support.h.

Imports: errors.
"""
