"""Build the compiled extensions of kaptai (Cython, nogil kernels).

Every ``kaptai/<package>/_<name>.pyx`` is one extension module
``kaptai.<package>._<name>``: a new game adds its kernels by adding files, not
by editing this script.  The include path is numpy's and the repository root,
so a kernel may ``cimport`` any ``.pxd`` of the package (``kaptai.core._rng``,
``kaptai.kts._eval``, ...).
"""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

compile_args = ["-O3"]
if os.environ.get("KAPTAI_NATIVE"):
    compile_args.append("-march=native")


def _extensions() -> list[Extension]:
    root = Path(__file__).resolve().parent
    out = []
    for pyx in sorted((root / "kaptai").rglob("_*.pyx")):
        rel = pyx.relative_to(root)
        out.append(
            Extension(
                ".".join(rel.with_suffix("").parts),
                [rel.as_posix()],
                include_dirs=[np.get_include(), "."],
                extra_compile_args=compile_args,
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            )
        )
    return out


setup(
    ext_modules=cythonize(
        _extensions(),
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
