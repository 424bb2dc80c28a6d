#!/usr/bin/env python3
"""Checks that every example in an OpenAPI 3.1 document validates against its schema.

    python3 scripts/check-openapi-examples.py [openapi.yaml]

openapi-spec-validator checks the document's structure but not its examples.
This walks every parameter, request body and response of every operation and
validates each `example` (and each item of `examples`) with JSON Schema 2020-12,
the dialect of OpenAPI 3.1, resolving `#/components/...` references in the
document. Response schemas are open (responses may gain fields), so examples
are checked against the document's closed copy (`openapi_closure.py`): a
response example with a member that no schema documents fails. Exits 1 when
an example does not validate.
"""
import sys

import yaml
from openapi_closure import closed_document
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_URI = "urn:past-nyc:openapi"


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "openapi.yaml"
    with open(path, encoding="utf-8") as file:
        document = closed_document(yaml.safe_load(file))
    registry = Registry().with_resource(
        DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT202012)
    )

    def resolve(node):
        """Follows a `$ref` to an object in the document (parameters, responses)."""
        while isinstance(node, dict) and "$ref" in node:
            target = document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def validator(schema):
        return Draft202012Validator(
            _rebase(schema), registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER
        )

    checked, failed = 0, 0

    def check(schema, example, where):
        nonlocal checked, failed
        checked += 1
        errors = sorted(validator(schema).iter_errors(example), key=lambda e: list(e.path))
        for error in errors:
            location = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print(f"FAIL {where} at {location}: {error.message}")
        if errors:
            failed += 1

    def check_media(content, where):
        for media_type, media in (content or {}).items():
            schema = media.get("schema", {})
            if "example" in media:
                check(schema, media["example"], f"{where} {media_type}")
            for name, example in (media.get("examples") or {}).items():
                check(schema, resolve(example).get("value"), f"{where} {media_type} example {name}")

    for route, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method not in {"get", "put", "post", "delete", "options", "head", "patch", "trace"}:
                continue
            where = f"{method.upper()} {route}"
            for parameter in map(resolve, operation.get("parameters", []) + item.get("parameters", [])):
                schema = parameter.get("schema", {})
                if "example" in parameter:
                    check(schema, parameter["example"], f"{where} parameter {parameter['name']}")
                for example in schema.get("examples", []):
                    check(schema, example, f"{where} parameter {parameter['name']}")
            if "requestBody" in operation:
                check_media(resolve(operation["requestBody"]).get("content"), f"{where} request body")
            for status, response in operation.get("responses", {}).items():
                check_media(resolve(response).get("content"), f"{where} {status}")

    print(f"{checked} examples checked, {failed} failed")
    return 1 if failed else 0


def _rebase(node):
    """Rewrites local references (`#/...`) to references into the registered document."""
    if isinstance(node, dict):
        return {
            key: (f"{DOCUMENT_URI}{value}" if key == "$ref" and value.startswith("#/") else _rebase(value))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_rebase(value) for value in node]
    return node


if __name__ == "__main__":
    sys.exit(main())
