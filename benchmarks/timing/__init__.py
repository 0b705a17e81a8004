"""Timings: speed and memory of the library, its command line and Dask."""
