"""Tests of the local connectors (connectors/local)."""
