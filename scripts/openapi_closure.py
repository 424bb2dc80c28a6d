#!/usr/bin/env python3
"""Closes the response schemas of an OpenAPI 3.1 document, for checking.

    python3 scripts/openapi_closure.py [openapi.yaml] > closed.yaml

The document leaves its response schemas open, because responses may gain
fields and a generated client must not reject one it does not know. Yet every
field the server sends today must be documented. The checks therefore read a
closed copy: wherever a JSON response body holds an object (a body, a
property, an array item, a `oneOf`/`anyOf` branch), that schema gains
`unevaluatedProperties: false`, so a member that no schema of that object
declares fails. (The YAML document of `GET /openapi.yaml` stays open.) Members of `allOf` stay open (the object that holds them
closes them all at once, JSON Schema 2020-12 §11.3), and so does any schema
that says `additionalProperties` itself. Schemas that a request body or a
parameter reaches are left as they are: requests already reject unknown
fields, and the contract test generates requests from them.

`scripts/check-openapi-examples.py` validates response examples against the
closed copy; `scripts/contract-test.sh` runs schemathesis with it.
"""
import copy
import sys

import yaml

SCHEMA_PREFIX = "#/components/schemas/"
OPERATIONS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def closed_document(document):
    """A copy of `document` whose response schemas admit no undocumented member."""
    closed = copy.deepcopy(document)
    schemas = closed.get("components", {}).get("schemas", {})

    def resolve(node):
        """Follows `$ref`s into `#/components/schemas`."""
        seen = set()
        while isinstance(node, dict) and node.get("$ref", "").startswith(SCHEMA_PREFIX):
            name = node["$ref"].removeprefix(SCHEMA_PREFIX)
            if name in seen:
                break
            seen.add(name)
            node = schemas[name]
        return node

    def holds_object(node):
        target = resolve(node)
        if not isinstance(target, dict) or "additionalProperties" in target:
            return False
        types = target.get("type", [])
        types = types if isinstance(types, list) else [types]
        return "object" in types or any(key in target for key in ("properties", "allOf", "oneOf", "anyOf"))

    def close(node, in_value_position):
        if not isinstance(node, dict):
            return
        if in_value_position and "unevaluatedProperties" not in node and holds_object(node):
            node["unevaluatedProperties"] = False
        for child in node.get("properties", {}).values():
            close(child, True)
        if isinstance(node.get("items"), dict):
            close(node["items"], True)
        for key in ("oneOf", "anyOf"):
            for child in node.get(key, []):
                close(child, True)
        for child in node.get("allOf", []):
            close(child, False)

    reached_by_requests = _schemas_reached_by_requests(closed, schemas)
    for name, schema in schemas.items():
        if name not in reached_by_requests:
            close(schema, False)
    for response in _responses(closed):
        for media_type, media in (response.get("content") or {}).items():
            if _is_json(media_type) and "schema" in media:
                close(media["schema"], True)
    return closed


def _is_json(media_type):
    """JSON bodies (`application/json`, `application/problem+json`, …); not the YAML document."""
    essence = media_type.split(";")[0].strip().lower()
    return essence == "application/json" or essence.endswith("+json")


def _responses(document):
    """Every response object written out in the document (not `$ref`s to one)."""
    yield from document.get("components", {}).get("responses", {}).values()
    for item in document.get("paths", {}).values():
        for method, operation in item.items():
            if method in OPERATIONS:
                for response in operation.get("responses", {}).values():
                    if "$ref" not in response:
                        yield response


def _schemas_reached_by_requests(document, schemas):
    """Names of the component schemas that a request body or a parameter reaches."""
    roots = []
    components = document.get("components", {})
    roots += [parameter.get("schema") for parameter in components.get("parameters", {}).values()]
    for item in document.get("paths", {}).values():
        for method, operation in item.items():
            if method not in OPERATIONS:
                continue
            roots += [parameter.get("schema") for parameter in operation.get("parameters", [])]
            body = operation.get("requestBody", {})
            roots += [media.get("schema") for media in body.get("content", {}).values()]
    reached = set()

    def visit(node):
        if isinstance(node, dict):
            reference = node.get("$ref", "")
            if reference.startswith(SCHEMA_PREFIX):
                name = reference.removeprefix(SCHEMA_PREFIX)
                if name not in reached:
                    reached.add(name)
                    visit(schemas[name])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(roots)
    return reached


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "openapi.yaml"
    with open(path, encoding="utf-8") as file:
        document = yaml.safe_load(file)
    yaml.safe_dump(closed_document(document), sys.stdout, sort_keys=False, allow_unicode=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
