"""LLM prompt files and the output JSON schema, packaged as data."""
