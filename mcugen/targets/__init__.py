"""Where the C runs: boards and cores as data (boards.py), what a chip needs to boot (chips.py), firmware
built with PlatformIO (firmware.py), flashing (flash.py), QEMU's emulated boards (qemu.py), the byte
streams and frames to a running target (transport.py, framing.py, protocol.py) and the one place
that resolves a board name into a connected target (target.py); the MLPerf Tiny DUT client (mlperf_dut.py).

Imports: errors, runtime, ir, ops, codegen (and mcugen's version).
"""
