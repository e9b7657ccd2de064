"""memseed test suite (a package, so tests/connectors never shadows the project's connectors)."""
