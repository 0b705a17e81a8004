"""The order of the gallery's examples: from what pAp@k counts to fitting,
evaluating, tuning and comparing rankers (sphinx-gallery's
``within_subsection_order``)."""

ORDER = (
    "plot_papk_pairs.py",
    "plot_boost_ranker.py",
    "plot_per_user_scores.py",
    "plot_cross_val.py",
    "plot_grid_search.py",
    "plot_leaderboard.py",
    "dask_fit.py",
    "distributed_search.py",
)


class ExampleOrder:
    """Sort key of an example's file name: its place in ``ORDER`` (a file
    left out of it fails the build, so that a new example gets a place)."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        if filename not in ORDER:
            raise ValueError(f"{filename} has no place in the gallery's order: "
                             f"add it to ORDER in {__file__}")
        return ORDER.index(filename)
