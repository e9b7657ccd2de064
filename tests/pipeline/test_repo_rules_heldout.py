"""Requirements a contributor guide states without a modal (held-out check, issue 19).

A pull-request checklist's items are requirements, whatever their mood.

``- [ ] There are no warnings during compilation.`` states a fact to make true before submitting:
a box to tick (held-out check, issue 19). The same sentence as a plain list item describes, and
is not quoted as a rule."""

from __future__ import annotations

from bootstrap_app.signals.repo_rules import contributor_rules

_GUIDE = """\
# Contributing

## Create a PR

### Check list
- [ ] There are no warnings during compilation.
- [x] The code is formatted with the project's formatter config.

## Background
- There are no warnings during compilation on the old compiler we once used.
"""


def test_a_checklist_item_is_a_rule_and_a_plain_item_is_not() -> None:
    rules = {r.where: (r.text, r.topic) for r in contributor_rules([("CONTRIBUTING.md", _GUIDE)])}
    assert rules.get("CONTRIBUTING.md:6") == ("There are no warnings during compilation.", "compiling")
    assert rules.get("CONTRIBUTING.md:7") == ("The code is formatted with the project's formatter config.", "style")
    assert "CONTRIBUTING.md:10" not in rules


_TESTS = """\
# Contributing

## Unit Tests
Toylib uses the [Unity](https://example.org/unity) library for unit tests. The tests live in `tests`.

## History
Toylib uses a lot of macros from the old days.
"""


def test_the_projects_own_test_practice_is_a_rule() -> None:
    """"Toylib uses Unity for unit tests" names what new tests are written with; "uses a lot of macros" does not."""
    rules = {r.where: (r.text, r.topic) for r in contributor_rules([("CONTRIBUTING.md", _TESTS)])}
    assert rules == {"CONTRIBUTING.md:4": ("Toylib uses the Unity library for unit tests.", "tests")}
