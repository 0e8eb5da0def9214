"""Keep of a vendor's CMSIS device header only what describes some peripherals: the vendor's copyright comment,
their register structs (`typedef struct {...} KIND_TypeDef;`), the non-secure base addresses of the named
instances (and the bus bases they are defined from) and their register fields (`KIND_REG_FIELD_Pos` / `_Msk`).
Every kept line is the vendor's, unchanged; tests/svd/README.md says where each file came from.

    python scripts/trim_cmsis_header.py VENDOR.h OUT.h KIND:INSTANCE [KIND:INSTANCE ...]

e.g. `stm32u575xx.h stm32u575xx.h RCC:RCC GPIO:GPIOA USART:USART1`.
"""
from __future__ import annotations

import re
import sys


def trim(source: str, out: str, wanted: list[tuple[str, str]]) -> None:
    text = open(source, encoding="utf-8").read()
    lines = text.splitlines()
    kept = [text[:text.index("*/") + 2], "", "/* trimmed by scripts/trim_cmsis_header.py: " + " ".join(
        f"{kind}:{instance}" for kind, instance in wanted) + " */", ""]
    kinds = {kind for kind, _ in wanted}
    for kind in sorted(kinds):  # the struct, from its typedef to its name
        end = next(i for i, line in enumerate(lines) if re.match(rf"\}}\s*{kind}_TypeDef;", line))
        start = max(i for i in range(end) if lines[i].startswith("typedef struct"))
        kept += lines[start:end + 1] + [""]
    bases = {f"{instance}_BASE_NS" for _, instance in wanted}
    defines = {m.group(1): line for line in lines if (m := re.match(r"#define\s+(\w+_BASE_NS)\s", line))}
    needed, order = set(), []
    while bases:  # each base and what it is defined from
        name = bases.pop()
        if name in needed:
            continue
        needed.add(name)
        order.append(defines[name])
        bases |= set(re.findall(r"\b(\w+_BASE_NS)\b", defines[name].split(None, 2)[2])) - {name}
    kept += sorted(order, key=lines.index) + [""]
    fields = re.compile(rf"#define\s+({'|'.join(sorted(kinds))})_\w+_(Pos|Msk)\s")
    kept += [line for line in lines if fields.match(line)]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    trim(sys.argv[1], sys.argv[2], [tuple(arg.split(":", 1)) for arg in sys.argv[3:]])  # type: ignore[misc]
