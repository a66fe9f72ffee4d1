"""One run: its plan, step 1 (instance rows), step 2 (bootstrap summaries), the executors."""
