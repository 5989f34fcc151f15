#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validate suite files against schema/suite.schema.json, as an editor does.

    validate_suites.py SCHEMA FILE...            every FILE must be valid
    validate_suites.py SCHEMA --reject FILE...   every FILE must be invalid

Prints FILE:LINE:COLUMN: message for each schema error (the first per file),
and exits 0 when every file came out as expected, 1 when one did not, 77
(skipped) when python3-jsonschema or python3-yaml is missing.
"""
import json
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # a skip, said plainly
    print(f"skip: {e.name} is not installed (apt-get install python3-jsonschema python3-yaml)")
    sys.exit(77)


def node_at(node, path):
    """The YAML node at a JSON path (keys and indices) of the composed tree."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == step), node)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step]
    return node


def where(root, err):
    """The node an error is about: an unknown key itself, else the value."""
    node = node_at(root, err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(node, yaml.MappingNode):
        known = err.schema.get("properties", {})
        for k, _ in node.value:
            if k.value not in known and not err.schema.get("patternProperties"):
                return k
    return node


def check(validator, path):
    """The first error of the file at path, as FILE:LINE:COLUMN: message, or None."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except (yaml.YAMLError, UnicodeDecodeError, ValueError) as e:
        return f"{path}: not a YAML document: {str(e).splitlines()[0]}"
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = jsonschema.exceptions.best_match(errors)
    node = where(root, err) if root is not None else None
    line, col = (node.start_mark.line + 1, node.start_mark.column + 1) if node else (1, 1)
    at = "/".join(str(p) for p in err.absolute_path) or "(top level)"
    return f"{path}:{line}:{col}: {at}: {err.message}"


def main(argv):
    reject = "--reject" in argv
    args = [a for a in argv[1:] if a != "--reject"]
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    wrong = 0
    for path in args[1:]:
        msg = check(validator, path)
        if msg:
            print(msg)
        if (msg is None) == reject:
            wrong += 1
            print(f"{path}: {'accepted' if reject else 'rejected'} by the schema, "
                  f"expected {'rejected' if reject else 'accepted'}")
    print(f"{len(args) - 1} file(s), {wrong} not as expected")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
