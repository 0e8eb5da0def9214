"""Run the MLPerf Tiny runner (mlcommons/tiny benchmark/runner/main.py, unmodified) against an emulated board
whose UART `mcugen flash --serial pty` put on a pseudo-terminal. The runner finds DUTs only among USB serial
ports, by the VID/PID its devices file names; a pty has neither, so this reports it as the one USB serial
port there is, with the NUCLEO-L4R5ZI's ST-LINK VID/PID (devices_kws_ic_vww.yaml names it). Nothing else of
the runner is touched. A standalone script, run with the runner's own Python (pyserial, pyusb):

    python mlperf_runner_shim.py --dut /dev/pts/N --runner-dir tiny/benchmark/runner \\
        --dataset_path=DATASETS --device_list=devices_kws_ic_vww.yaml --mode=p

Every argument after --dut and --runner-dir goes to the runner.
"""
import argparse
import os
import runpy
import sys

from serial.tools import list_ports, list_ports_common

try:  # the runner scans USB devices too (for its power monitor): pyusb is in its environment
    import usb.core
except ImportError:
    usb = None

ST_LINK = (0x0483, 0x374B)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--dut", required=True, help="the pseudo-terminal mcugen flash --serial pty printed")
parser.add_argument("--runner-dir", required=True, help="mlcommons/tiny's benchmark/runner folder")
ours, theirs = parser.parse_known_args()
if not os.path.exists(ours.dut):
    sys.exit(f"error: {ours.dut} does not exist; start mcugen flash --board B --out DIR --serial pty first")
if not os.path.isfile(os.path.join(ours.runner_dir, "main.py")):
    sys.exit(f"error: no main.py in {ours.runner_dir}; pass mlcommons/tiny's benchmark/runner folder")
info = list_ports_common.ListPortInfo(ours.dut)
info.vid, info.pid = ST_LINK
info.description = "QEMU UART (mcugen firmware)"
list_ports.comports = lambda include_links=False: [info]
if usb is not None:
    usb.core.find = lambda find_all=False, **kw: [] if find_all else None
os.chdir(ours.runner_dir)
sys.path.insert(0, os.path.abspath("."))
sys.argv = ["main.py", *theirs]
runpy.run_path("main.py", run_name="__main__")
