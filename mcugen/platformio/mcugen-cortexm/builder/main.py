"""SCons script of the offline platform: compile the project's sources for the board's core with the
system arm-none-eabi-gcc and link them with the project's generated link.ld."""
import os

from SCons.Script import AlwaysBuild, Default, DefaultEnvironment

env = DefaultEnvironment()
board = env.BoardConfig()
fpu = board.get("build.fpu", "")
machine = ["-mthumb", "-mcpu=%s" % board.get("build.cpu")]
machine += ["-mfpu=%s" % fpu, "-mfloat-abi=hard"] if fpu else ["-mfloat-abi=soft"]

env.Replace(
    AR="arm-none-eabi-gcc-ar", AS="arm-none-eabi-as", CC="arm-none-eabi-gcc", CXX="arm-none-eabi-g++",
    OBJCOPY="arm-none-eabi-objcopy", RANLIB="arm-none-eabi-gcc-ranlib", SIZETOOL="arm-none-eabi-size",
    ARFLAGS=["rc"], PROGNAME="firmware", PROGSUFFIX=".elf",
    SIZEPROGREGEXP=r"^(?:\.isr_vector|\.text|\.rodata|\.data)\s+(\d+).*",
    SIZEDATAREGEXP=r"^(?:\.data|\.bss|\.stack)\s+(\d+).*",
    SIZECHECKCMD="$SIZETOOL -A -d $SOURCES", SIZEPRINTCMD="$SIZETOOL -B -d $SOURCES",
)
if os.environ.get("MCUGEN_CCACHE"):
    # the test suite builds hundreds of firmwares from the same kernels: ccache compiles each once (its cache
    # lies outside the build folder, so only where asked)
    env.Replace(CC="ccache arm-none-eabi-gcc")
env.Append(
    ASFLAGS=machine,
    CCFLAGS=machine + ["-O2", "-g", "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra"],
    CFLAGS=["-std=c99"],
    LINKFLAGS=machine + ["-nostartfiles", "--specs=nano.specs", "--specs=nosys.specs", "-Wl,--gc-sections",
                         "-T", os.path.join(env.subst("$PROJECT_DIR"), "link.ld"),
                         "-Wl,-Map,${BUILD_DIR}/${PROGNAME}.map"],
    LIBS=["c_nano", "m", "gcc"],  # libm: sqrtf, for float layers
)
env.ProcessFlags(board.get("build.extra_flags", ""))

elf = env.BuildProgram()
AlwaysBuild(env.Alias("size", elf, env.VerboseAction("$SIZEPRINTCMD", "Calculating size $SOURCE")))
# Uploading is mcugen's business (QEMU, bossac, ...): `mcugen flash` runs it, not this platform.
AlwaysBuild(env.Alias("upload", elf, env.VerboseAction("echo use mcugen flash", "Upload")))
Default([elf])
