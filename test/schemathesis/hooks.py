"""Teaches schemathesis what the document can only state in words (run.sh loads this file). Only cases meant to be
valid are touched; cases meant to be invalid are left as generated.

- `format: time-zone`: names come from the server's own time zone list (SCHEMATHESIS_TIME_ZONES, one per line).
- `x-after` / `x-max-days-after` on a date-time: the later field moves to one hour after the earlier one when it is
  not after it, or further than allowed.
- The authorization endpoint's `client_id` and `redirect_uri` are those of an application run.sh registered
  (SCHEMATHESIS_CLIENT_ID, SCHEMATHESIS_REDIRECT_URI): an unknown client is refused by design.
"""

import json
import os
import random
import urllib.request
from datetime import datetime, timedelta

import schemathesis
from hypothesis import strategies as st

with open(os.environ["SCHEMATHESIS_TIME_ZONES"], encoding="utf-8") as lines:
    ZONES = [line.strip() for line in lines if line.strip()]
schemathesis.openapi.format("time-zone", st.sampled_from(ZONES))
CLIENT = {"client_id": os.environ["SCHEMATHESIS_CLIENT_ID"], "redirect_uri": os.environ["SCHEMATHESIS_REDIRECT_URI"]}

with urllib.request.urlopen(os.environ["SCHEMATHESIS_OPENAPI_URL"]) as answer:
    DOCUMENT = json.load(answer)


def resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        target = DOCUMENT
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def rules_of(fields):
    """The order rules (field, earlier, max_days) and the time zone fields among an object's fields."""
    fields = {name: resolve(schema) for name, schema in fields.items()}
    return {
        "order": [(name, s["x-after"], s.get("x-max-days-after")) for name, s in fields.items() if "x-after" in s],
        "zones": [name for name, s in fields.items() if s.get("format") == "time-zone"],
    }


def rules_by_operation():
    rules = {}
    for path, item in DOCUMENT.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            query = {p["name"]: p["schema"] for p in map(resolve, operation.get("parameters", [])) if p["in"] == "query"}
            body = resolve(operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {}))
            rules[(method.upper(), path)] = {"query": rules_of(query), "body": rules_of(body.get("properties", {}))}
    return rules


RULES = rules_by_operation()


def parse(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def make_valid(values, rules, path):
    if not isinstance(values, dict):
        return
    for field in rules["zones"]:
        if isinstance(values.get(field), str) and values[field] not in ZONES:
            values[field] = random.choice(ZONES)
    if path == "/oauth/authorize":
        values.update({name: value for name, value in CLIENT.items() if name in values})
    for field, earlier, max_days in rules["order"]:
        if not isinstance(values.get(field), str) or not isinstance(values.get(earlier), str):
            continue
        try:
            start, end = parse(values[earlier]), parse(values[field])
        except ValueError:
            continue
        if end <= start or (max_days is not None and end - start > timedelta(days=max_days)):
            try:
                values[field] = (start + timedelta(hours=1)).isoformat().replace("+00:00", "Z")
            except OverflowError:
                values[earlier] = (end - timedelta(hours=1)).isoformat().replace("+00:00", "Z")


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    rules = RULES.get((case.method.upper(), case.operation.path))
    if rules:
        make_valid(case.query, rules["query"], case.operation.path)
        make_valid(case.body, rules["body"], case.operation.path)
