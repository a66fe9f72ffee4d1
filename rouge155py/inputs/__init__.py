"""A run's inputs: the doors its evals come in by (see :mod:`rouge155py.inputs.sources`)."""

from . import sources as sources  # first: the doors it registers import its helpers
