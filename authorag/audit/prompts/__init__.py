"""Prompt templates of the audit's LLM steps (package data, versioned like the judges' prompts)."""
