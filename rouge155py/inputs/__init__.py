"""A run's inputs: the doors its evals come in by (see :mod:`rouge155py.inputs.sources`)."""
