#!/usr/bin/env python3
"""Validate SARIF logs against the official SARIF 2.1.0 JSON schema
(tests/data/sarif-schema-2.1.0.json, OASIS errata01).  Exit 0 when every
file validates, 1 otherwise (errors on stderr), 77 when jsonschema is missing."""
import json, os, sys
try:
    import jsonschema
except ImportError:
    print("sarif-validate: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(77)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "data", "sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
validator = jsonschema.Draft4Validator(schema)
bad = 0
for path in sys.argv[1:]:
    with open(path) as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print("%s: %s: %s" % (path, "/".join(str(p) for p in e.path), e.message), file=sys.stderr)
    bad += bool(errors)
sys.exit(1 if bad else 0)
