"""Who counts as "you": the owner's addresses, names and ids, resolved from every source, checked for lookalikes, and shown to the person for correction.

Modules here are imported by their full name; this file imports nothing, so that a
low layer importing one of them never loads the rest (see docs/architecture.md)."""
