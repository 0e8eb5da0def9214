"""Run the MLPerf Tiny runner (mlcommons/tiny benchmark/runner/main.py, unmodified) against a DUT on a
pseudo-terminal (QEMU's `-serial pty`): the runner finds DUTs only among USB serial ports by VID/PID, so
the pty is reported as one (the L4R5ZI's ST-LINK VID/PID, which devices_kws_ic_vww.yaml names) and no
other USB device exists. Nothing else of the runner is touched.

    DUT_PTY=/dev/pts/N RUNNER_DIR=.../benchmark/runner python mlperf_runner_pty.py --mode=p \
        --dataset_path=DATASETS --device_list=devices_kws_ic_vww.yaml

(see benchmarks/README.md, "The MLPerf Tiny runner against mcugen firmware")."""
import os, runpy, sys
from serial.tools import list_ports, list_ports_common
import usb.core

pty = os.environ["DUT_PTY"]
info = list_ports_common.ListPortInfo(pty)
info.vid, info.pid, info.description = 0x0483, 0x374B, "QEMU UART (mcugen firmware)"
list_ports.comports = lambda include_links=False: [info]
usb.core.find = lambda find_all=False, **kw: [] if find_all else None
os.chdir(os.environ["RUNNER_DIR"])
sys.path.insert(0, os.environ["RUNNER_DIR"])
sys.argv = ["main.py", *sys.argv[1:]]
runpy.run_path("main.py", run_name="__main__")
