"""The reference ROUGE-1.5.5.pl: its installation, and the fixtures archived from its runs.

The tests import these modules with ``tests/`` as the import root (pytest puts it on
``sys.path``); their command lines run from there too, e.g.
``cd tests && python -m reference.make_fixtures --check``. ``oracle.py`` needs nothing
but the standard library, so CI and the benchmark also run it as a file:
``python tests/reference/oracle.py --install``.
"""
