"""The test suite is a package, so ``tests/connectors`` never shadows the real ``connectors``."""
