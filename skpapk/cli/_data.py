"""The data ``skpapk compare`` runs on: a simulation, MovieLens or a CSV file."""

import numpy as np
from sklearn.utils import check_random_state

from ._output import CLIError

#: Names of the simulated features (beyond them: pure noise).
SIMULATION_FEATURES = ("taste_1", "taste_2", "taste_3", "popularity", "activity")


def make_engagement_simulation(n_users=200, n_features=8, random_state=None):
    """Users with heterogeneous engagement and noisy irrelevant items.

    Every user has an engagement level ``e ~ N(0, 1)``; its share of
    relevant items is ``sigmoid(-2.2 + 1.2 e)`` (about 1% to 50%), out of 40
    to 199 items. The features of an item are

    - ``taste_1..3``: what makes an item relevant to its user (relevant
      items are shifted by ``(0.9, 0.6, -0.4)``);
    - ``popularity``: a little higher for relevant items, but much higher
      (+2.5, with ``taste_1`` +1.5) for *decoys*, a tenth of the irrelevant
      items that look attractive;
    - ``activity``: the user's engagement plus noise. It predicts whether a
      row is relevant *across* users (engaged users have more relevant
      items) but says nothing about which items a user prefers: a pointwise
      classifier uses it, which adds noise to every user's ranking, while a
      model trained to rank within users can learn to ignore it;
    - noise features up to ``n_features``.

    Parameters
    ----------
    n_users : int
    n_features : int, >= 5
    random_state : int or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of int64
        1 for relevant rows.
    groups : ndarray of int64
        The user of each row.
    names : list of str
        The feature names.

    Examples
    --------
    >>> from skpapk.cli._data import make_engagement_simulation
    >>> X, y, groups, names = make_engagement_simulation(5, random_state=0)
    >>> X.shape[1], names[:2]
    (8, ['taste_1', 'taste_2'])
    """
    if n_features < len(SIMULATION_FEATURES):
        raise CLIError(f"--n-features must be at least {len(SIMULATION_FEATURES)} "
                       f"({', '.join(SIMULATION_FEATURES)}), got {n_features}.")
    rng = check_random_state(random_state)
    engagement = rng.normal(size=n_users)
    n_items = rng.randint(40, 200, size=n_users)
    share = 1.0 / (1.0 + np.exp(-(-2.2 + 1.2 * engagement)))
    groups = np.repeat(np.arange(n_users), n_items)
    n = groups.shape[0]
    relevant = rng.uniform(size=n) < share[groups]
    taste = rng.normal(size=(n, 3)) + np.outer(relevant, [0.9, 0.6, -0.4])
    decoy = ~relevant & (rng.uniform(size=n) < 0.1)
    taste[decoy, 0] += 1.5
    popularity = rng.normal(size=n) + 0.5 * relevant + 2.5 * decoy
    activity = engagement[groups] + rng.normal(scale=0.7, size=n)
    noise = rng.normal(size=(n, n_features - len(SIMULATION_FEATURES)))
    X = np.column_stack([taste, popularity, activity, noise])
    names = list(SIMULATION_FEATURES) + [
        f"noise_{j + 1}" for j in range(noise.shape[1])]
    return X, relevant.astype(np.int64), groups.astype(np.int64), names


def load_compare_data(args, progress, read_csv_file):
    """``(X, y, groups, description)`` for ``compare --data``."""
    if args.path is not None and args.data != "movielens":
        raise CLIError("--path is for --data movielens (the u.data file or its "
                       "folder); for a CSV file pass --data FILE.csv.")
    if args.data == "synthetic":
        X, y, groups, _ = make_engagement_simulation(
            args.n_users, args.n_features, random_state=args.random_state)
        return X, y, groups, (
            f"synthetic: {args.n_users} users with heterogeneous engagement "
            f"(1-50% relevant items among 40-199), decoy irrelevant items, "
            f"{args.n_features} features")
    if args.data == "movielens":
        from ..datasets import load_movielens_100k

        with progress.task("MovieLens 100K: reading u.data and building the "
                           "features (masked NMF, paper App. F.1)"):
            try:
                bunch = load_movielens_100k(args.path,
                                            random_state=args.random_state,
                                            download=not args.no_download)
            except FileNotFoundError as exc:
                raise CLIError(str(exc)) from None
        return (bunch.data, bunch.target.astype(np.int64), bunch.groups,
                "MovieLens 100K (paper App. F.1: 90 NMF features, rating 5 = "
                "relevant)")
    data, y_pos = read_csv_file(args.data)
    return data.X, y_pos.astype(np.int64), data.group_codes, args.data
