"""skpapk's benchmarks: timings (``benchmarks.timing``) and experiments
(``benchmarks.experiments``), run from the repository root as modules, e.g.
``python -m benchmarks.experiments.compare_peers --quick``.

``python -m benchmarks run-all`` regenerates every committed result file of
``benchmarks/results/`` (see :mod:`benchmarks.__main__`). Not part of the
library (``pip install -e ".[bench]"`` installs what they import).
"""
