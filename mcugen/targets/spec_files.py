"""The board, chip and core files' YAML: parsed strictly (a key given twice is an error, not the last
one kept), checked against the folder's JSON schema, and named after its id."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import yaml

from mcugen.errors import McugenError


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (PyYAML keeps the last)."""


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup is not None:
        raise yaml.constructor.ConstructorError(None, None, f"key '{dup}' appears twice", node.start_mark)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                              lambda loader, node: _mapping(loader, node, deep=True))


def read_yaml(path: Path, fix: str) -> Any:
    """A YAML file's data, read strictly; unreadable or invalid: one line, with `fix`."""
    try:
        return yaml.load(path.read_text(), Loader=_StrictLoader)
    except OSError as exc:
        raise McugenError(f"{path}: cannot read it ({exc.strerror})", fix) from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise McugenError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})", fix) from None


def load_spec(path: Path, schema: dict[str, Any], fix: str) -> dict[str, Any]:
    """A YAML file checked against its schema, named after its id."""
    spec = read_yaml(path, fix)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(spec), key=lambda e: list(e.path))
    if errors:
        where = "/".join(map(str, errors[0].path)) or "top level"
        raise McugenError(f"{path}: {where}: {errors[0].message}", fix)
    if spec["id"] != path.stem:
        raise McugenError(f"{path}: id '{spec['id']}' differs from the file name", fix)
    return spec
