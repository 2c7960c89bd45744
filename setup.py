"""Build the compiled extensions of kaptai (Cython, nogil kernels)."""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

compile_args = ["-O3"]
if os.environ.get("KAPTAI_NATIVE"):
    compile_args.append("-march=native")

extensions = [
    Extension(
        "kaptai.kts._eval",
        ["kaptai/kts/_eval.pyx"],
        include_dirs=[np.get_include()],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    Extension(
        "kaptai.kts._engine",
        ["kaptai/kts/_engine.pyx"],
        include_dirs=[np.get_include()],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    Extension(
        "kaptai.bigtwo._combo",
        ["kaptai/bigtwo/_combo.pyx"],
        include_dirs=[np.get_include(), "."],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    Extension(
        "kaptai.bigtwo._engine",
        ["kaptai/bigtwo/_engine.pyx"],
        # the package root: kaptai/core/_rng.pxd and kaptai/bigtwo/_combo.pxd are cimported
        include_dirs=[np.get_include(), "."],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
