"""Extractors: heuristic (signals -> proposals) and the opt-in LLM path (digest, prompts, llm)."""
