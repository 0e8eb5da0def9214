"""The one exception type users see, printed as a single line by the CLI."""


class McugenError(Exception):
    """A problem with the user's input or environment.

    `str()` is one line: what is wrong, then what to do about it.
    """

    def __init__(self, problem: str, fix: str = ""):
        self.problem = problem
        self.fix = fix
        super().__init__(f"{problem}; {fix}" if fix else problem)


# The command line's exit codes: bad input or environment, a target that disagrees with the golden
# model, mcugen's own bug
EXIT_ERROR = 1
EXIT_MISMATCH = 2
EXIT_INTERNAL = 70
