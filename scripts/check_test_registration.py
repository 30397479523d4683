#!/usr/bin/env python3
"""Every test case runs exactly once under CTest: fails when a Catch2 case or a Qt Test function
of any test binary is run by no CTest test or by several, or when a CTest test runs no case.

Twice before, Catch2 names holding ';' were split by catch_discover_tests into filters that
matched nothing, and a Qt Test function was never listed: CTest counted them as passed.

usage: check_test_registration.py BUILD_DIR
"""
import json
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor


def ctest_commands(build_dir):
    """CTest's tests as (name, command argv) from its JSON listing."""
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    return [(t["name"], t.get("command", [])) for t in json.loads(out)["tests"]]


def run_lines(argv):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    return result.returncode, [line.rstrip() for line in result.stdout.splitlines() if line.strip()]


def unwrap(argv):
    """The test command itself, without an xvfb-run in front of it."""
    if argv and os.path.basename(argv[0]) == "xvfb-run":
        rest = argv[1:]
        while rest and rest[0].startswith("-"):
            takes_value = rest[0] in ("-s", "-n", "-f", "-e", "-p", "-w")
            rest = rest[2:] if takes_value else rest[1:]
        return rest
    return argv


def kind_of(binary):
    """'catch' or 'qt' for a test binary this check understands, None for anything else."""
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK) or binary.endswith(".sh"):
        return None
    _, lines = run_lines([binary, "--help"])
    if lines and lines[0].startswith("Catch v2"):
        return "catch"
    code, lines = run_lines([binary, "-functions"])
    if code == 0 and lines and all(line.endswith("()") for line in lines):
        return "qt"
    return None


def catch_cases(binary, filters):
    """The case names a Catch2 binary runs with these command-line filters."""
    # Catch2 v2 exits with the number of cases listed; its output is the list.
    _, lines = run_lines([binary, *filters, "--list-test-names-only"])
    return lines


def check_binary(binary, kind, tests):
    problems = []
    if kind == "catch":
        every = catch_cases(binary, [])
        # Catch2's own options that catch_discover_tests adds are not filters.
        def filters(argv):
            return [a for a in argv[1:] if not a.startswith("--") and a not in ("-r", "-o")]
        with ThreadPoolExecutor(max_workers=4) as pool:
            ran = list(pool.map(lambda t: catch_cases(binary, filters(t[1])), tests))
    else:
        _, lines = run_lines([binary, "-functions"])
        every = [line[:-2] for line in lines]
        ran = []
        for _, argv in tests:
            names = [a for a in argv[1:] if not a.startswith("-")]
            ran.append([n for n in names if n in every] if names else list(every))
    counts = Counter()
    for (name, _), cases in zip(tests, ran):
        if not cases:
            problems.append(f"CTest test '{name}' runs no test case of {binary}")
        counts.update(cases)
    for case in every:
        if counts[case] != 1:
            problems.append(f"{os.path.basename(binary)}: test case '{case}' is run by "
                            f"{counts[case]} CTest tests, expected exactly 1")
    return problems, len(every)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    by_binary = {}
    for name, argv in ctest_commands(sys.argv[1]):
        argv = unwrap(argv)
        if argv:
            by_binary.setdefault(argv[0], []).append((name, argv))
    problems, checked = [], 0
    for binary, tests in sorted(by_binary.items()):
        kind = kind_of(binary)
        if kind is None:
            continue
        found, count = check_binary(binary, kind, tests)
        problems += found
        checked += count
        print(f"{os.path.basename(binary)}: {count} {kind} test cases, {len(tests)} CTest tests")
    for problem in problems:
        print(problem)
    if checked == 0:
        problems.append("no test binary found")
        print("no Catch2 or Qt Test binary found among CTest's tests")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
