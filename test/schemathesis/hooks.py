"""Teaches schemathesis what the document can only state in words (run.sh loads this file). Only cases meant to be
valid are touched; cases meant to be invalid are left as generated.

- `format: time-zone`: names come from the server's own time zone list (SCHEMATHESIS_TIME_ZONES, one per line).
- `x-after` / `x-not-before` (and `x-max-days-after`) on a number, date or date-time: the later field moves just
  after (or onto) the earlier one when out of order, in nested objects and arrays too. A case that sets only one of
  the two (a partial update) gets the other too, since the server compares it with the stored one.
- `x-weekday` on a date (ISO, 1 = Monday): the date moves back to that weekday.
- `x-not-in-future` on a date-time: a later one becomes an hour ago.
- `x-issued-by-server` (page tokens, a meeting type's lengths): only the server knows valid values, so valid cases
  leave the field out.
- `dependentRequired` (a username and its password): a valid case holding one field of a pair without the other
  drops it.
- `x-checked-by-server` (RRULEs; X-Calendar-Min-Position, a position the log must have reached; an iCalendar text
  body): the rule is richer than the schema, so valid cases take one of the `examples`, in bodies, queries and headers.
- A body published as cases (`anyOf` of objects told apart by `const` or `enum` fields) is fixed along its case.
- The authorization endpoint's `client_id` and `redirect_uri` are those of an application run.sh registered
  (SCHEMATHESIS_CLIENT_ID, SCHEMATHESIS_REDIRECT_URI): an unknown client is refused by design.
"""

import json
import os
import random
import urllib.request
from datetime import date, datetime, timedelta

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
    return node if isinstance(node, dict) else {}


def flat(schema):
    """The schema with the keywords of its non-null anyOf/oneOf branches (a nullable field's rules live there)."""
    schema = resolve(schema)
    merged = {}
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        branch = resolve(branch)
        if branch.get("type") != "null":
            merged.update(branch)
    return {**merged, **schema}


def within(value, schema):
    if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
        return False
    return not ("exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]
                or "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"])


def as_time(text):
    """(value, step, render) for a date or date-time text, or None."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text), timedelta(days=1), date.isoformat
        return datetime.fromisoformat(text.replace("Z", "+00:00")), timedelta(hours=1), \
            lambda t: t.isoformat().replace("+00:00", "Z")
    except ValueError:
        return None


def complete_pair(values, field, earlier):
    """Sets the missing one of the pair from the other (strings as date or date-time, numbers as they are)."""
    if (field in values) == (earlier in values):
        return
    present = field if field in values else earlier
    value = values[present]
    parsed = as_time(value) if isinstance(value, str) else None
    if parsed is not None:
        moment, step, render = parsed
        try:
            values[earlier if present == field else field] = render(moment - step if present == field else moment + step)
        except OverflowError:
            pass
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        values[earlier if present == field else field] = value


def put_in_order(values, field, earlier, strict, max_days, props):
    if earlier in props:
        complete_pair(values, field, earlier)
    later_value, earlier_value = values.get(field), values.get(earlier)
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (later_value, earlier_value))
    if numbers:
        step = 1 if strict else 0
        if later_value > earlier_value or (not strict and later_value == earlier_value):
            return
        if within(earlier_value + step, props[field]):
            values[field] = earlier_value + step
        elif within(later_value - step, props.get(earlier, {})):
            values[earlier] = later_value - step
        return
    if not isinstance(later_value, str) or not isinstance(earlier_value, str):
        return
    start, end = as_time(earlier_value), as_time(later_value)
    if start is None or end is None:
        return
    (start, step, render), end = start, end[0]
    if type(start) is not type(end):  # a date and a date-time: the later one takes the earlier one's kind
        end = start - step
    too_far = max_days is not None and end - start > timedelta(days=max_days)
    if end > start and not too_far or (not strict and end == start):
        return
    try:
        values[field] = render(start + (step if strict else timedelta(0)))
    except OverflowError:
        values[earlier] = render(end - step)


def matching_branch(values, schema):
    """The object case of an anyOf/oneOf whose fixed fields (`const`, `enum`) the value holds, if any."""
    for branch in map(resolve, schema.get("anyOf", []) + schema.get("oneOf", [])):
        fixed = {name: s for name, s in branch.get("properties", {}).items() if "const" in s or "enum" in s}
        if fixed and all(name in values and (values[name] == s.get("const") if "const" in s else values[name] in s["enum"])
                         for name, s in fixed.items()):
            return branch
    return None


def make_valid(values, schema, path, depth=0):
    """Walks a valid case's value along its schema, fixing what only the words say."""
    if depth > 8:
        return
    if isinstance(values, list):
        for item in values:
            make_valid(item, resolve(schema.get("items")), path, depth + 1)
        return
    if not isinstance(values, dict):
        return
    if "properties" not in schema:
        branch = matching_branch(values, schema)
        if branch is not None:
            make_valid(values, branch, path, depth + 1)
        return
    props = {name: flat(s) for name, s in schema.get("properties", {}).items()}
    for name, needed in schema.get("dependentRequired", {}).items():
        if name in values and any(other not in values for other in needed):
            values.pop(name)
    for name, s in props.items():
        if s.get("x-issued-by-server"):
            values.pop(name, None)
        elif s.get("format") == "time-zone" and isinstance(values.get(name), str) and values[name] not in ZONES:
            values[name] = random.choice(ZONES)
        elif s.get("x-weekday") and isinstance(values.get(name), str) and as_time(values[name]):
            day = as_time(values[name])[0]
            try:
                values[name] = (day - timedelta(days=(day.isoweekday() - s["x-weekday"]) % 7)).isoformat()
            except OverflowError:
                values[name] = (day + timedelta(days=(s["x-weekday"] - day.isoweekday()) % 7)).isoformat()
        elif s.get("x-not-in-future") and isinstance(values.get(name), str) and as_time(values[name]):
            moment = as_time(values[name])[0]
            now = datetime.now(moment.tzinfo)
            if moment > now - timedelta(minutes=1):
                values[name] = (now - timedelta(hours=1)).isoformat()
        elif s.get("x-checked-by-server") and isinstance(values.get(name), str) and values[name] not in s["examples"]:
            values[name] = random.choice(s["examples"])
    if path == "/oauth/authorize":
        values.update({name: value for name, value in CLIENT.items() if name in values})
    for name, s in props.items():
        earlier = s.get("x-after") or s.get("x-not-before")
        if earlier:
            put_in_order(values, name, earlier, "x-after" in s, s.get("x-max-days-after"), props)
    for name, s in props.items():
        if name in values:
            make_valid(values[name], s, path, depth + 1)


def operation_schemas(method, path):
    operation = DOCUMENT.get("paths", {}).get(path, {}).get(method.lower(), {})
    parameters = [resolve(p) for p in operation.get("parameters", [])]
    query, headers = ({"properties": {p["name"]: p.get("schema", {}) for p in parameters if p.get("in") == where}}
                      for where in ("query", "header"))
    body = resolve(operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema"))
    return query, headers, body


def text_body_schema(method, path):
    """The schema of an operation's text body (an iCalendar import), or {}."""
    operation = DOCUMENT.get("paths", {}).get(path, {}).get(method.lower(), {})
    content = operation.get("requestBody", {}).get("content", {})
    return resolve(content.get("text/calendar", {}).get("schema"))


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    query, headers, body = operation_schemas(case.method, case.operation.path)
    make_valid(case.query, query, case.operation.path)
    if case.headers is not None:  # a CaseInsensitiveDict, not a dict: fixed as a copy, then written back
        fixed = dict(case.headers)
        make_valid(fixed, headers, case.operation.path)
        case.headers.update(fixed)
    make_valid(case.body, body, case.operation.path)
    text = text_body_schema(case.method, case.operation.path)
    if text.get("x-checked-by-server") and case.body not in text["examples"]:
        case.body = random.choice(text["examples"])
