#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""require.py MODULE[,MODULE...]: exit 0 when python3 can import them all,
else say which Debian package is missing and exit 77 (skipped)."""
import importlib
import sys

PACKAGES = {"jsonschema": "python3-jsonschema", "yaml": "python3-yaml"}
missing = []
for name in sys.argv[1].split(",") if len(sys.argv) > 1 else []:
    try:
        importlib.import_module(name)
    except ImportError:
        missing.append(PACKAGES.get(name, name))
if missing:
    print(f"skip: not installed: {' '.join(missing)} (apt-get install {' '.join(missing)})")
    sys.exit(77)
