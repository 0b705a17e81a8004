"""A simulation of users with heterogeneous engagement and decoy items."""

import numpy as np

from ..utils._validation import validate_random_state
from ._samples_generator import _check_count, _check_rows

#: Names of the informative simulated features (beyond them: pure noise).
ENGAGEMENT_FEATURES = ("taste_1", "taste_2", "taste_3", "popularity", "activity")


def make_engagement_simulation(n_users=200, n_features=8, *, random_state=None):
    """Make users with heterogeneous engagement and noisy irrelevant items.

    Every user has an engagement level ``e ~ N(0, 1)``; its share of
    relevant items is ``sigmoid(-2.2 + 1.2 e)`` (1% to 54% for 95% of the
    users, 10% for the median one), out of 40 to 199 items. The share drawn
    varies around it: with 500 users, 1.6% to 5.8% of them (3.5% on
    average over seeds 0-99) get no relevant item (their pAp@k is
    undefined, and left out of micro-pAp@k) and a few get
    more than 75%. The features of an item are

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

    This is the data of ``skpapk compare`` with no option, where pointwise
    classifiers and rankers trained for pAp@k differ.

    Parameters
    ----------
    n_users : int, default=200
        Number of users (groups).
    n_features : int, default=8
        Number of features, at least 5 (the informative ones above).
    random_state : int, RandomState instance or None, default=None
        Seed of the simulation.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The features of every (user, item) row.
    y : ndarray of int64 of shape (n_samples,)
        1 for relevant rows.
    groups : ndarray of int64 of shape (n_samples,)
        The user of each row.
    feature_names : list of str
        The names of the columns of ``X``.

    See Also
    --------
    make_papk_simulation : The paper's simulations (Section 7.1).

    Examples
    --------
    >>> from skpapk.datasets import make_engagement_simulation
    >>> X, y, groups, names = make_engagement_simulation(5, random_state=0)
    >>> X.shape[1], names[:2]
    (8, ['taste_1', 'taste_2'])
    """
    n_users = _check_count(n_users, "n_users")
    n_features = _check_count(n_features, "n_features",
                              minimum=len(ENGAGEMENT_FEATURES))
    _check_rows(199 * n_users, f"n_users={n_users} users of up to 199 items",
                n_features, "lower n_users or n_features", total=True)
    rng = validate_random_state(random_state)
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
    noise = rng.normal(size=(n, n_features - len(ENGAGEMENT_FEATURES)))
    X = np.column_stack([taste, popularity, activity, noise])
    names = list(ENGAGEMENT_FEATURES) + [
        f"noise_{j + 1}" for j in range(noise.shape[1])]
    return X, relevant.astype(np.int64), groups.astype(np.int64), names
