from platformio.public import PlatformBase


class McugencortexmPlatform(PlatformBase):  # PlatformIO derives the class name from "mcugen-cortexm"
    pass
