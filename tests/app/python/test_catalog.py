"""The catalog as data: the same ids, parameters and defaults `ddalab list` prints."""
import subprocess

import pytest

import ddalab


def test_version_is_the_projects():
    assert ddalab.__version__.count(".") == 2
    assert ddalab.build.startswith(ddalab.__version__)


def test_every_listed_id_is_in_the_catalog(cli):
    listed = subprocess.run([cli, "list"], check=True, capture_output=True, text=True).stdout
    for entry in ddalab.games() + ddalab.players():
        assert f"  {entry['id']} - " in listed
    for metric in ddalab.metrics():
        assert f"  {metric['key']} (" in listed


def test_parameters_carry_types_defaults_and_ranges():
    ludo = next(g for g in ddalab.games() if g["id"] == "ludo")
    players = next(p for p in ludo["params"] if p["name"] == "players")
    assert players["type"] == "integer"
    assert (players["min"], players["max"]) == (2, 4)
    assert players["default"] == ddalab.Game("ludo").params["players"]
    roles = {p["id"]: p["roles"] for p in ddalab.players()}
    assert roles["e-random"] == ["environment"]
    assert "regular" in roles["random"]


def test_a_game_refuses_a_bad_parameter_naming_it():
    for params, where in [({"players": 9}, "params.players"), ({"nonsense": 1}, "params")]:
        try:
            ddalab.Game("ludo", params)
        except ddalab.InputError as error:
            assert where in str(error)
        else:
            raise AssertionError(f"{params} was accepted")
    try:
        ddalab.Game("no-such-game")
    except ValueError as error:
        assert "ludo" in str(error)  # lists the valid ids
    else:
        raise AssertionError("an unknown game was accepted")


def test_cmake_install_puts_an_importable_package(tmp_path):
    """`cmake --install` puts the package where the interpreter finds it under the prefix
    (lib/python3.X/dist-packages: on Debian 12 /usr/local/lib/python3.11/dist-packages is on the
    system python3's path)."""
    import os
    import pathlib
    import shutil
    import sys

    if not shutil.which("cmake"):
        pytest.skip("cmake is not on PATH")
    build = pathlib.Path(ddalab.__file__).resolve().parents[2]
    if not (build / "CMakeCache.txt").is_file():
        pytest.skip(f"{build} is not the build folder (the package was imported from elsewhere)")
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    site = tmp_path / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / \
        "dist-packages"
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", "import ddalab, ddalab.rl; "
                           "print(ddalab.__file__, ddalab.__version__)"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(str(site / "ddalab" / "__init__.py"))
    assert done.stdout.split()[1] == ddalab.__version__
