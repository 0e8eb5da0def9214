"""Rewrite one marked table in benchmarks/README.md: <!-- name --> ... <!-- /name -->."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).with_name("README.md")


def rewrite(name: str, rows: list[str]) -> None:
    table = "\n".join(rows)
    text = README.read_text()
    if f"<!-- {name} -->" not in text:
        text += f"\n<!-- {name} -->\n<!-- /{name} -->\n"
    text = re.sub(rf"(<!-- {name} -->\n).*?(<!-- /{name} -->)",
                  lambda m: m.group(1) + table + "\n" + m.group(2), text, flags=re.S)
    README.write_text(text)
