"""``python -m benchmarks [NAME ...]``: run the named benchmarks (default: all)."""
from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def available() -> list[str]:
    return sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")] or available()
    rest = [a for a in argv if a.startswith("-")]
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}")
        return 2
    rc = 0
    for name in names:
        print(f"== {name} ==", flush=True)
        module = importlib.import_module(f"benchmarks.bench_{name}")
        rc |= module.main(rest)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
