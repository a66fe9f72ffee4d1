"""``python -m rouge155py``."""

import os


def _interrupted_while_importing() -> None:
    """Ctrl-C before the command's own handlers exist: its one line and 130, as later."""
    try:
        os.write(2, b"rouge155py: interrupted\n")
    except OSError:
        pass
    os._exit(130)


try:
    from .cli import entry
except KeyboardInterrupt:
    _interrupted_while_importing()
except RuntimeError as error:  # Python 3.11 wraps what a class's creation raises
    if not isinstance(error.__cause__, KeyboardInterrupt):
        raise
    _interrupted_while_importing()

entry()
