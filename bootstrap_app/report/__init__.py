"""What a scan did, told plainly: progress and per-source reports, the ledger that accounts for every unit found, throughput, and the sources memseed knows.

Modules here are imported by their full name; this file imports nothing, so that a
low layer importing one of them never loads the rest (see docs/architecture.md)."""
