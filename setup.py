"""Build the Cython kernels: every ``src/_core/<name>.pyx`` becomes the
extension module ``solvers._core.<name>``. Everything else is in pyproject.toml."""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

CORE = Path("src/_core")
# Developers may build one kernel alone: SOLVERS_ONLY=c2c python setup.py build_ext --inplace
ONLY = {name for name in os.environ.get("SOLVERS_ONLY", "").split(",") if name}
# ... and replace the optimisation flags, as tools/sanitize.sh does (an
# instrumented build: SOLVERS_CFLAGS="-O1 -g -fsanitize=address,undefined").
CFLAGS = os.environ.get("SOLVERS_CFLAGS", "-O3").split()

extensions = [
    Extension(
        f"solvers._core.{pyx.stem}",
        [str(pyx)],
        include_dirs=[str(CORE), numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=CFLAGS,
    )
    for pyx in sorted(CORE.glob("*.pyx"))
    if not ONLY or pyx.stem in ONLY
]

setup(
    packages=find_packages("src", exclude=["_core", "_core.*"]) + ["solvers._core", "solvers.cli", "solvers.rules"],
    ext_modules=cythonize(
        extensions,
        include_path=[str(CORE)],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
