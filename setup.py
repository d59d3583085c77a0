"""Packaging that pyproject.toml cannot say: the pages' templates and static files sit at the top
of the tree (``templates/``, ``static/``), and a wheel carries them inside the package as
``scorekeeper/templates`` and ``scorekeeper/static``, where ``create_app`` finds them. Everything
else is declared in pyproject.toml."""

from setuptools import find_packages, setup

SHIPPED = {"scorekeeper.templates": "templates", "scorekeeper.static": "static"}

setup(packages=find_packages(include=["scorekeeper", "scorekeeper.*"]) + list(SHIPPED), package_dir=SHIPPED)
