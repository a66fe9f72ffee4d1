"""pyrouge's ``Rouge155`` on rouge155py: the same public surface, no Perl (work in progress)."""

from __future__ import annotations

__all__ = ["Rouge155"]


class Rouge155:
    """Placeholder."""
