"""The person's side of a proposal: the review model behind the app, how a card reads, and the decisions (approve, edit, reject) kept at once.

Modules here are imported by their full name; this file imports nothing, so that a
low layer importing one of them never loads the rest (see docs/architecture.md)."""
