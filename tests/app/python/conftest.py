"""Shared fixtures of the Python module's tests (run by CTest: tests/CMakeLists.txt)."""
import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def source_dir():
    """The repository (for the shipped batch files)."""
    return pathlib.Path(os.environ.get("DDALAB_SOURCE_DIR",
                                       pathlib.Path(__file__).resolve().parents[3]))


@pytest.fixture(scope="session")
def cli():
    """The ddalab CLI of the same build, to compare the module with."""
    path = os.environ.get("DDALAB_CLI")
    if not path:
        pytest.skip("DDALAB_CLI is not set (run through CTest)")
    return path
