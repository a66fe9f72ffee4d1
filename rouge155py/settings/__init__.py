"""The settings of a run, each declared once: :mod:`.table` (the rows and their checks),
:mod:`.options` (:class:`~rouge155py.Options`, whose fields are the rows) and :mod:`.argv` (the
command line, read as ROUGE-1.5.5.pl reads it)."""
