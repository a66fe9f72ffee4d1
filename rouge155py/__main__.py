"""``python -m rouge155py``."""

from .cli import main

main()
