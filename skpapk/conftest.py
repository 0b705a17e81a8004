"""pytest settings of the package's tests and doctests."""

import importlib.util

# skpapk.dask needs the optional extra `dask`: without it, neither its
# modules (doctests) nor its tests can be collected.
collect_ignore = [] if importlib.util.find_spec("dask") else ["dask"]
