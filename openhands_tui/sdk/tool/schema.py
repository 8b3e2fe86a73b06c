"""Turn a pydantic Action model into the JSON schema an LLM reads as a tool's parameters.

Pydantic's schema is correct but noisy for a model: `$ref`s into `$defs`, generated titles,
`anyOf [X, null]` for optional fields. Providers differ in what they accept, so we hand them
the plainest equivalent: refs inlined, titles dropped, optionals reduced to their type.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    schema = _clean(raw, defs)
    schema.setdefault("properties", {})
    schema["type"] = "object"
    schema.pop("description", None)  # the tool description already says what the tool does
    return schema


def _clean(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_clean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return _clean(merged, defs)
    any_of = node.get("anyOf")
    if isinstance(any_of, list):
        non_null = [option for option in any_of if option.get("type") != "null"]
        if len(non_null) == 1:
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            return _clean({**non_null[0], **rest}, defs)
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties" and isinstance(value, dict):
            cleaned[key] = {name: _clean(prop, defs) for name, prop in value.items()}
        else:
            cleaned[key] = _clean(value, defs)
    return cleaned
