"""Build script: metadata is in setup.cfg; this only adds the optional C kernels.

If a kernel cannot be compiled, rouge155py installs without it and uses its
pure-Python path, which gives the same bytes.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rouge155py._accel",
            ["rouge155py/_accel.c", "rouge155py/_rs_text.c"],
            depends=["rouge155py/_rs_text.h", "rouge155py/_gil.h"],
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "rouge155py._paraeval",
            ["rouge155py/_paraeval.c"],
            depends=["rouge155py/_gil.h"],
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
    ]
)
