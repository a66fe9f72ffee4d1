"""``python -m rouge155py``."""

from .cli import entry

entry()
