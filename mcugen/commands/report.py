"""`mcugen report html` and the --html option of build and test: the reports as one page."""
from __future__ import annotations

from pathlib import Path

from mcugen.commands.common import refuse_overwrite, write_atomically
from mcugen.errors import McugenError


def write_page(path: Path, test: dict | None, build: dict | None) -> None:
    from mcugen.validation.html_report import render

    page = render(test, build)
    write_atomically(path, lambda f: f.write(page.encode()), ".html")
    print(f"wrote {path}")


def cmd_report_html(args) -> int:
    import json

    from mcugen.validation.json_reports import read_report

    out = Path(args.out)
    refuse_overwrite(out, args.force)
    first = Path(args.report)
    try:
        kind = json.loads(first.read_text()).get("schema", "")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, RecursionError):
        kind = ""  # read_report says what is wrong with it
    if kind == "mcugen-build-report":
        if args.build:
            raise McugenError(f"{first} is a build report already", "give a test report with --build, or drop --build")
        test: dict | None = None
        build: dict | None = read_report(first, "build")
    else:
        test = read_report(first, "test")
        build = read_report(Path(args.build), "build") if args.build else None
        if build is not None and (build["model_sha256"], build["board"]) != (test["model_sha256"], test["board"]):
            raise McugenError(f"{args.build} is of {build['model']} on {build['board']}, {first} of {test['model']} on "
                              f"{test['board']}", "give the build report of the same model and board")
    write_page(out, test, build)
    return 0
