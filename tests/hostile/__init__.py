"""Hostile inputs and faults: the catalogue, the fuzz target, the limits."""
