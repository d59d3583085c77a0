"""Packaging that pyproject.toml cannot say: the pages' templates and static files sit at the top
of the tree (``templates/``, ``static/``), and a wheel carries them inside the package as
``scorekeeper/templates`` and ``scorekeeper/static``, where ``create_app`` finds them. Everything
else is declared in pyproject.toml.

Every folder is listed as a package, data-only ones too (``docs``, ``migrations``,
``templates/hand``): setuptools warns that a folder Python can import but the list leaves out
"would be ignored", and a later setuptools will drop it from the wheel."""

from setuptools import find_namespace_packages, setup

SHIPPED = {"scorekeeper.templates": "templates", "scorekeeper.static": "static"}
NOT_PACKAGES = ["*__pycache__*"]


def shipped_packages() -> list[str]:
    """The mapped folders and every folder under them, named inside the package."""
    packages = []
    for package, folder in SHIPPED.items():
        packages.append(package)
        packages += [f"{package}.{sub}" for sub in find_namespace_packages(where=folder, exclude=NOT_PACKAGES)]
    return packages


OWN = find_namespace_packages(include=["scorekeeper", "scorekeeper.*"], exclude=NOT_PACKAGES)

setup(packages=OWN + shipped_packages(), package_dir=SHIPPED)
