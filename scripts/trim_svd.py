"""Keep of a vendor's CMSIS-SVD file only the peripherals the harness touches (and those they derive
from): tests/svd/ holds the results, tests/svd/README.md says where each came from.

    python scripts/trim_svd.py VENDOR.svd OUT.svd PERIPHERAL [PERIPHERAL ...]
"""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET


def trim(source: str, out: str, names: list[str]) -> None:
    raw = open(source, encoding="utf-8").read()
    root = ET.fromstring(raw, parser=ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    peripherals = root.find("peripherals")
    by_name = {p.findtext("name"): p for p in peripherals.findall("peripheral")}
    keep = set(names)
    for name in names:  # a derived peripheral needs the one it derives from
        while by_name[name].get("derivedFrom"):
            name = by_name[name].get("derivedFrom")
            keep.add(name)
    for p in list(peripherals):
        if p.findtext("name") not in keep:
            peripherals.remove(p)
    prolog = raw[:raw.index("<device")]  # the declaration and the vendor's copyright comment, as they were
    with open(out, "w", encoding="utf-8") as f:
        f.write(prolog + ET.tostring(root, encoding="unicode") + "\n")


if __name__ == "__main__":
    trim(sys.argv[1], sys.argv[2], sys.argv[3:])
