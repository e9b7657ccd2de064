"""What a read leaves behind so the next one is cheaper: the append cache of account sources, the snapshots of path sources, their one row writer and JSON codec, and reseed's "anything new?" check.

Modules here are imported by their full name; this file imports nothing, so that a
low layer importing one of them never loads the rest (see docs/architecture.md)."""
