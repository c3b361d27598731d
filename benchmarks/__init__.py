"""Performance harness. Each ``bench_*.py`` module has ``main(argv) -> int``.

Run one with ``./dev bench NAME`` (e.g. ``./dev bench rules``) or all with ``./dev bench``.
Every benchmark measures a baseline in the same run and reports ratios, because absolute
figures on a shared 2-core machine drift from run to run.
"""
