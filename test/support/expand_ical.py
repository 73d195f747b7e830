"""Expands an iCalendar text (stdin) between two instants (argv) as a subscribing client would: icalendar parses it,
recurring-ical-events applies RRULE, RDATE, EXDATE and RECURRENCE-ID overrides on the VTIMEZONEs it carries. Prints
one JSON list of {uid, start, end, summary} (instants in UTC, ISO 8601 with milliseconds), sorted by start."""
import json
import sys
from datetime import datetime, timezone

import icalendar
import recurring_ical_events


def utc(value):
    if not isinstance(value, datetime):
        raise SystemExit(f"all-day occurrence in the feed: {value!r}")
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def main():
    start = datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
    end = datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00"))
    calendar = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
    found = [
        {"uid": str(e["UID"]), "start": utc(e["DTSTART"].dt), "end": utc(e["DTEND"].dt), "summary": str(e["SUMMARY"])}
        for e in recurring_ical_events.of(calendar).between(start, end)
    ]
    found.sort(key=lambda o: (o["start"], o["uid"]))
    json.dump(found, sys.stdout)


main()
