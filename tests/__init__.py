"""The test suite is a package, so tests/connectors never shadows the top-level connectors package."""
