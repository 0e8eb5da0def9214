"""mcugen: int8 TFLite models to statically planned C for microcontrollers."""

__version__ = "0.1.0"
