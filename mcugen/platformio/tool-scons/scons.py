# PlatformIO runs "<python> <tool-scons>/scons.py ..."; hand over to SCons installed from PyPI.
import sys

import SCons.Script

if __name__ == "__main__":
    sys.exit(SCons.Script.main())
