"""What pyproject.toml cannot say: the demo package ships inside kas_tui.

``demo_kb/`` stays the source of truth (``kas-tui demo_kb`` opens it from a checkout); it
is mapped to the package ``kas_tui._demo``, so a wheel carries it as package data
(``kas_tui/_demo/orbit-handbook/...``, reachable with ``importlib.resources``). Package
data globs are in pyproject.toml with the rest of the project.
"""

from setuptools import find_namespace_packages, setup

setup(
    packages=[
        *find_namespace_packages(include=["kas_tui*"], exclude=["*.__pycache__"]),
        "kas_tui._demo",
    ],
    package_dir={"kas_tui._demo": "demo_kb"},
)
