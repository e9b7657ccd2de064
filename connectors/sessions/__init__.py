"""Readers of the conversations a person had with their agents (see :mod:`.sources`)."""
