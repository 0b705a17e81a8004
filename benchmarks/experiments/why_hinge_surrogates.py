"""Why the paper's hinge surrogates do not learn on MovieLens 100K.

Protocol (App. F.1): :func:`skpapk.datasets.load_movielens_100k` with a fixed
``random_state``, every user's rows split 60/20/20 into train / validation /
test (:func:`skpapk.model_selection.within_group_split`), every feature
scaled with the train min/max. The script prints:

1. the objective ``f(w_t)`` of the avg, max, TS and pAUC rankers from
   ``w_0 = 0`` over 200 epochs for step sizes from 1e-3 to 50;
2. the one-sided directional derivative at ``w = 0+`` of every surrogate
   along fitted directions (logistic regression, a pairwise logistic model
   fitted by L-BFGS, the best-validation and the last iterate of the avg
   ranker) and 100 random ones; with ``--lp``, its minimum over all
   directions (a linear program: 0 means ``w = 0`` minimises the convex
   avg / max surrogates, for every ``alpha``);
3. the surrogates along rays ``t * d``;
4. per user: the top-``k'`` irrelevant items' mean score against the
   relevant items' mean / top-``beta`` mean / top score;
5. why PAUCRanker and PApKAvgRanker give the same ``coef_`` and why its
   direction hardly depends on ``eta0`` and ``alpha``;
6. the same measurements on simulated users (``make_papk_simulation``),
   where the avg surrogate learns, and with a weaker signal, where it
   does not;
7. the prec@k surrogate of PrecAtKRanker at k = 24: a brute-force check of
   value and subgradient against the definition (Kar et al. 2015, App.
   B.4) on small groups of MovieLens rows, the term that wins when a user
   has fewer than k relevant items, and what it makes the ranker learn.

Run ``python -m benchmarks.experiments.why_hinge_surrogates --lp`` (about 4-6 minutes
on 2 shared cores; without ``--lp`` about a minute less). The data are read from
``--path`` (default: the loader's own search, ``$SKPAPK_DATA`` first); never
copy them into the repository.
"""

import argparse
import itertools
import time
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog, minimize
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import MinMaxScaler

from skpapk import PApKAvgRanker, PApKRanker, PAUCRanker, PrecAtKRanker
from skpapk.datasets import load_movielens_100k, make_papk_simulation
from skpapk.losses import SURROGATES, surrogate_loss
from skpapk.metrics import expected_papk_score, papk_score
from skpapk.model_selection import within_group_split

from .._common import command_line, data_path, machine_info, non_negative_int, today

HINGES = ("avg", "max", "ts", "ramp", "pauc")


class Part:
    """Rows of one part, with group codes and each group's row indices."""

    def __init__(self, X, y, groups):
        self.X, self.y = X, np.asarray(y) == 1
        _, self.codes = np.unique(groups, return_inverse=True)
        self.n_groups = int(self.codes.max()) + 1
        order = np.argsort(self.codes, kind="stable")
        bounds = np.searchsorted(self.codes[order], np.arange(self.n_groups + 1))
        rows = [order[a:b] for a, b in itertools.pairwise(bounds)]
        self.pos = [r[self.y[r]] for r in rows]
        self.neg = [r[~self.y[r]] for r in rows]
        self.used = [
            u for u in range(self.n_groups) if len(self.pos[u]) and len(self.neg[u])
        ]

    def loss(self, name, scores, k):
        return SURROGATES[name]().loss_gradient(
            self.y, scores, self.codes, self.n_groups, k
        )

    def papk(self, w, k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return papk_score(self.y, self.X @ w, k=k, groups=self.codes)


def unit(d, part):
    """``d`` scaled so that the training scores have unit standard deviation."""
    return d / np.std(part.X @ d)


def derivative(part, name, d, k):
    """One-sided directional derivative at w = 0+ (library surrogate).

    Every hinge is active near 0 and the ranking under ``t d`` is the one
    under ``d``, so the surrogate is affine in small ``t > 0``.
    """
    s = part.X @ d
    t = 1e-6 / np.abs(s).max()
    return (part.loss(name, t * s, k)[0] - part.loss(name, 0 * s, k)[0]) / t


def per_user(part, d, k):
    """Per-user statistics of the scores ``X @ d`` (a loop over users: an oracle)."""
    s = part.X @ d
    out = {
        key: []
        for key in (
            "avg",
            "max",
            "ramp",
            "ts",
            "gt_mean",
            "gt_topbeta",
            "gt_top",
            "tail",
            "sep",
        )
    }
    for u in part.used:
        P = np.sort(s[part.pos[u]])[::-1]
        N = np.sort(s[part.neg[u]])[::-1]
        kp, beta = min(k, N.size), min(k, P.size)
        top_n = N[:kp].mean()
        out["avg"].append(top_n - P.mean())
        out["max"].append(top_n - P[-beta:].mean())
        out["ramp"].append(top_n - P[:beta].mean())
        diff = N[None, :kp] - P[:, None]
        ts = diff[:beta].sum() + np.maximum(diff[beta:], 0).sum()
        out["ts"].append(ts / (beta * kp))
        out["gt_mean"].append(top_n > P.mean())
        out["gt_topbeta"].append(top_n > P[:beta].mean())
        out["gt_top"].append(top_n > P[0])
        sd = N.std() if N.size > 1 and N.std() > 0 else np.nan
        out["tail"].append((top_n - N.mean()) / sd)
        out["sep"].append((P.mean() - N.mean()) / sd)
    return {key: np.asarray(v, dtype=float) for key, v in out.items()}


def pairwise_logistic(part, lam=1e-4):
    """Minimise the mean over users of the per-user mean pairwise log-loss."""
    i = np.concatenate([np.repeat(part.pos[u], len(part.neg[u])) for u in part.used])
    j = np.concatenate([np.tile(part.neg[u], len(part.pos[u])) for u in part.used])
    weight = np.concatenate(
        [
            np.full(
                len(part.pos[u]) * len(part.neg[u]),
                1.0 / (len(part.pos[u]) * len(part.neg[u])),
            )
            for u in part.used
        ]
    ) / len(part.used)
    n = part.X.shape[0]

    def fun(w):
        s = part.X @ w
        m = s[i] - s[j]
        c = -weight / (1.0 + np.exp(m))
        grad = part.X.T @ (np.bincount(i, c, n) - np.bincount(j, c, n))
        return (weight * np.logaddexp(0.0, -m)).sum() + lam * w @ w, grad + 2 * lam * w

    res = minimize(fun, np.zeros(part.X.shape[1]), jac=True, method="L-BFGS-B")
    return res.x, i.size


def min_derivative_lp(part, k, kind):
    """min over ||d||_inf <= 1 of the avg / max derivative at 0+ (HiGHS LP).

    ``topsum_m(v) = min_t m t + sum_j max(0, v_j - t)`` makes the derivative
    a linear program in ``d``. The features are centred per user and the
    columns that are then 0 dropped (they shift a user's scores alike: no
    surrogate sees them), which leaves the minimum unchanged.
    """
    X, codes, G = part.X, part.codes, part.n_groups
    mean = np.zeros((G, X.shape[1]))
    np.add.at(mean, codes, X)
    mean /= np.bincount(codes, minlength=G)[:, None]
    Xc = X - mean[codes]
    Xc = Xc[:, np.abs(Xc).max(axis=0) > 1e-12]
    p, used = Xc.shape[1], np.array(part.used)
    weight = np.zeros(G)
    weight[used] = 1.0 / used.size
    n_pos = np.array([len(a) for a in part.pos])
    n_neg = np.array([len(a) for a in part.neg])
    negs = np.concatenate([part.neg[u] for u in used])
    poss = np.concatenate([part.pos[u] for u in used])
    blocks, costs, bounds = [], [np.zeros(p)], [(-1, 1)] * p

    def topsum(rows, m, sign):  # variables t_u (G) and e_j (rows)
        costs.append(weight)
        costs.append((weight / np.maximum(m, 1))[codes[rows]])
        bounds.extend([(None, None)] * G + [(0, None)] * rows.size)
        return rows, sign

    parts = [topsum(negs, np.minimum(k, n_neg), 1.0)]
    if kind == "avg":
        pos_mean = np.zeros((G, p))
        np.add.at(pos_mean, codes[poss], Xc[poss])
        costs[0] = -(weight[:, None] * pos_mean / np.maximum(n_pos, 1)[:, None]).sum(0)
    else:  # -mean of the bottom beta positives = topsum_beta(-P) / beta
        parts.append(topsum(poss, np.minimum(k, n_pos), -1.0))
    c = np.concatenate(costs)
    offset = p
    for rows, sign in parts:
        m = rows.size
        t_block = sp.csr_matrix(
            (-np.ones(m), (np.arange(m), codes[rows])), shape=(m, G)
        )
        blocks.append(
            sp.hstack(
                [
                    sp.csr_matrix(sign * Xc[rows]),
                    sp.csr_matrix((m, offset - p)),
                    t_block,
                    -sp.eye(m),
                    sp.csr_matrix((m, c.size - offset - G - m)),
                ]
            )
        )
        offset += G + m
    A = sp.vstack(blocks).tocsr()
    res = linprog(c, A_ub=A, b_ub=np.zeros(A.shape[0]), bounds=bounds, method="highs")
    return res.fun, float(np.abs(res.x[:p]).max()), res.status


def iterates(cls, part, n, **params):
    """w_1 .. w_n of the plain subgradient method (one warm-started epoch each)."""
    ranker = cls(max_iter=1, tol=None, warm_start=True, **params)
    out = []
    for _ in range(n):
        out.append(ranker.fit(part.X, part.y, groups=part.codes).coef_.copy())
    return out


def max_pair_gap(part, w, k):
    """max over users of P_i - N_j over all positives and the top-k' negatives."""
    s = part.X @ w
    return max(
        s[part.pos[u]].max() - np.sort(s[part.neg[u]])[::-1][:k].min()
        for u in part.used
    )


def fmt(x, spec=".3f"):
    return format(x, spec)


_CLOCK = [time.perf_counter()]


def section(title):
    now = time.perf_counter()
    print(f"\n(previous section: {now - _CLOCK[0]:.0f} s)\n\n## {title}\n")
    _CLOCK[0] = now


def load(path, seed, nmf_seed):
    data = load_movielens_100k(path, random_state=nmf_seed)
    tr, va, te = within_group_split(data.target, data.groups, random_state=seed)
    scaler = MinMaxScaler().fit(data.data[tr])
    X = scaler.transform(data.data)
    return [Part(X[idx], data.target[idx], data.groups[idx]) for idx in (tr, va, te)]


def objective_runs(train, test, k):
    section(
        f"1. Objective from w_0 = 0 over 200 epochs (k = {k}, alpha = 1e-3, tol=None)"
    )
    print(
        "| surrogate | eta0 | f(w_0) | min_t>=1 f(w_t) | epoch of min | "
        "warned | test micro-pAp@k of w_200 |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in ("avg", "max", "ts", "pauc"):
        for eta0 in (1e-3, 1.0, 50.0):
            cls = PAUCRanker if name == "pauc" else PApKRanker
            params = {} if name == "pauc" else {"surrogate": name}
            ranker = cls(k=k, eta0=eta0, alpha=1e-3, max_iter=200, tol=None, **params)
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always", ConvergenceWarning)
                ranker.fit(train.X, train.y, groups=train.codes)
            warned = any("never went below" in str(r.message) for r in record)
            curve = ranker.objective_curve_
            print(
                f"| {name} | {eta0:g} | {curve[0]:.4f} | {curve[1:].min():.4f} | "
                f"{1 + curve[1:].argmin()} | {warned} | "
                f"{100 * test.papk(ranker.coef_, k):.1f} |"
            )


def directions(train, val, test, k, rng):
    lr = LogisticRegression(C=1.0, max_iter=2000).fit(train.X, train.y)
    t0 = time.perf_counter()
    w_pair, n_pairs = pairwise_logistic(train)
    t_pair = time.perf_counter() - t0
    path = iterates(PApKAvgRanker, train, 200, k=k, eta0=1.0, alpha=1e-3)
    val_scores = [val.papk(w, k) for w in path]
    best = int(np.argmax(val_scores))
    default = PApKAvgRanker(k=k).fit(train.X, train.y, groups=train.codes).coef_
    found = {
        "logistic regression (C=1)": lr.coef_.ravel(),
        "pairwise logistic (L-BFGS)": w_pair,
        f"avg ranker, best-validation iterate (w_{best + 1})": path[best],
        "avg ranker, default fit (w_11)": default,
        "avg ranker, w_200 (eta0=1)": path[-1],
    }
    print(f"(pairwise logistic: {n_pairs} training pairs, {t_pair:.1f} s)")
    return found, [rng.normal(size=train.X.shape[1]) for _ in range(50)]


def derivative_tables(train, val, test, found, random_dirs, ks):
    section(
        "2. Directional derivative at w = 0+ (per unit standard deviation of "
        "the training scores; > 0: the surrogate rises along d)"
    )
    for k in ks:
        print(f"k = {k}\n")
        names = HINGES + ("preck",)
        print("| direction | val / test micro-pAp@k | " + " | ".join(names) + " |")
        print("| --- | --- |" + " --- |" * len(names))
        for label, d in found.items():
            d = unit(d, train)
            der = [derivative(train, name, d, k) for name in names]
            print(
                f"| {label} | {100 * val.papk(d, k):.1f} / "
                f"{100 * test.papk(d, k):.1f} | "
                + " | ".join(fmt(v) for v in der)
                + " |"
            )
        der = np.array(
            [
                [derivative(train, name, unit(d, train), k) for name in names]
                for d in random_dirs
            ]
        )
        for stat, f in (("min", np.min), ("median", np.median)):
            print(
                f"| {len(random_dirs)} random N(0, I): {stat} | - | "
                + " | ".join(fmt(v) for v in f(der, axis=0))
                + " |"
            )
        d = unit(found["pairwise logistic (L-BFGS)"], train)
        stats = per_user(train, d, k)
        check = max(
            abs(derivative(train, name, d, k) - stats[name].mean())
            for name in ("avg", "max", "ramp", "ts")
        )
        print(
            f"\n(library derivative vs the per-user formula, pairwise direction: "
            f"max difference {check:.1e})\n"
        )


def lp_certificates(train, ks):
    section(
        "2b. Minimum of the derivative at 0+ over all directions "
        "(||d||_inf <= 1, linear program)"
    )
    print("| surrogate | k | min derivative | max abs d at the optimum | seconds |")
    print("| --- | --- | --- | --- | --- |")
    for k in ks:
        for kind in ("avg", "max"):
            t0 = time.perf_counter()
            value, dmax, status = min_derivative_lp(train, k, kind)
            print(f"| {kind} (= pauc)" if kind == "avg" else f"| {kind}", end="")
            print(
                f" | {k} | {value:.2e} (status {status}) | {dmax:.2g} | "
                f"{time.perf_counter() - t0:.0f} |"
            )


def rays(train, found, k):
    section(f"3. Surrogates along rays t * d (k = {k}; d scaled to unit score std)")
    print("| direction | surrogate | " + " | ".join(f"t={t:g}" for t in RAY_T) + " |")
    print("| --- | --- |" + " --- |" * len(RAY_T))
    for label in ("logistic regression (C=1)", "pairwise logistic (L-BFGS)"):
        d = unit(found[label], train)
        for name in ("avg", "max", "ts"):
            vals = [train.loss(name, t * (train.X @ d), k)[0] for t in RAY_T]
            print(
                f"| {label} | {name} | " + " | ".join(f"{v:.3f}" for v in vals) + " |"
            )


RAY_T = (0.0, 0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0)


def user_table(part, found, random_dirs, ks):
    section("4. Per user: the top-k' irrelevant items against the relevant ones")
    print(
        "share of users whose top-k' irrelevant mean exceeds the relevant mean / "
        "the top-beta relevant mean / the top relevant score; mean over users of "
        "the tail excess (top-k' mean - mean of the irrelevant) and of the class "
        "separation (relevant mean - irrelevant mean), both in irrelevant-score "
        "standard deviations\n"
    )
    print(
        "| direction | k | > mean | > top-beta mean | > top | tail excess | "
        "separation |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = dict(found)
    rows["random N(0, I) (first)"] = random_dirs[0]
    for k in ks:
        for label, d in rows.items():
            st = per_user(part, d, k)
            print(
                f"| {label} | {k} | {st['gt_mean'].mean():.2f} | "
                f"{st['gt_topbeta'].mean():.2f} | {st['gt_top'].mean():.2f} | "
                f"{np.nanmean(st['tail']):.2f} | {np.nanmean(st['sep']):.2f} |"
            )


def same_coef(train, k):
    section(
        f"5. Why PAUCRanker = PApKAvgRanker, and why eta0 and alpha hardly "
        f"matter (k = {k})"
    )
    print(
        "| eta0 | max abs diff of coef_ (default fits) | max over w_1..w_11 of "
        "max_u (P_i - N_j) (all hinges active while < 1) |"
    )
    print("| --- | --- | --- |")
    for eta0 in (1e-3, 1.0, 50.0):
        a = (
            PApKAvgRanker(k=k, eta0=eta0)
            .fit(train.X, train.y, groups=train.codes)
            .coef_
        )
        p = PAUCRanker(k=k, eta0=eta0).fit(train.X, train.y, groups=train.codes).coef_
        gap = max(
            max_pair_gap(train, w, k)
            for w in iterates(PApKAvgRanker, train, 11, k=k, eta0=eta0)
        )
        print(f"| {eta0:g} | {np.abs(a - p).max():.1e} | {gap:.3f} |")
    ref = PApKAvgRanker(k=k).fit(train.X, train.y, groups=train.codes).coef_
    alphas = (0.0, 1e-3, 1e-1, 1.0)
    print("\ncosine of the default fits' coef_ with that of eta0=1, alpha=1e-3:\n")
    print("| eta0 | " + " | ".join(f"alpha={a:g}" for a in alphas) + " |")
    print("| --- |" + " --- |" * len(alphas))
    for eta0 in (1e-4, 1e-2, 0.5, 1.0, 10.0, 50.0):
        cos = []
        for alpha in alphas:
            w = (
                PApKAvgRanker(k=k, eta0=eta0, alpha=alpha)
                .fit(train.X, train.y, groups=train.codes)
                .coef_
            )
            cos.append(w @ ref / np.linalg.norm(w) / np.linalg.norm(ref))
        print(f"| {eta0:g} | " + " | ".join(f"{c:.4f}" for c in cos) + " |")
    print()
    w1 = (
        PApKAvgRanker(k=k, eta0=1.0, alpha=0.0)
        .fit(train.X, train.y, groups=train.codes)
        .coef_
    )
    w3 = (
        PApKAvgRanker(k=k, eta0=1e-3, alpha=0.0)
        .fit(train.X, train.y, groups=train.codes)
        .coef_
    )
    print(
        f"alpha=0: max |coef_(eta0=1e-3) / 1e-3 - coef_(eta0=1)| = "
        f"{np.abs(w3 / 1e-3 - w1).max():.1e} (|coef_| max {np.abs(w1).max():.2g})"
    )
    _, coef0, _ = train.loss("avg", np.zeros(train.X.shape[0]), k)
    g0 = train.X.T @ coef0
    print(
        f"cosine(coef_, -g_0) = "
        f"{-(ref @ g0) / np.linalg.norm(ref) / np.linalg.norm(g0):.4f}"
        f" (g_0: the first subgradient, top-k' negatives by row order at w = 0)"
    )


def simulation():
    section(
        "6. Simulated users (make_papk_simulation, d = 5, 50 users, "
        "negatives ~ N(0, I), positives ~ N(m 1_d, I))"
    )
    print(
        "| n+ / n- / k | m | derivative of avg along -1_d | min derivative (LP) | "
        "users: top-k' mean > relevant mean | f(w_0) -> min f(w_t) | warned | "
        "test micro-pAp@k: avg ranker / logistic / random |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n_pos, n_neg, k, m in (
        (10, 160, 20, -1.0),
        (10, 160, 20, -0.5),
        (15, 50, 8, -1.0),
        (15, 50, 8, -0.5),
    ):
        parts = [
            Part(
                *make_papk_simulation(
                    50, n_pos=n_pos, n_neg=n_neg, pos_mean=m, random_state=seed
                )
            )
            for seed in (0, 1)
        ]
        train, test = parts
        d = unit(-np.ones(5), train)
        st = per_user(train, d, k)
        lp_min = f"{min_derivative_lp(train, k, 'avg')[0]:.3f}"
        ranker = PApKAvgRanker(k=k, max_iter=200)
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always", ConvergenceWarning)
            ranker.fit(train.X, train.y, groups=train.codes)
        warned = any("never went below" in str(r.message) for r in record)
        curve = ranker.objective_curve_
        lr = LogisticRegression().fit(train.X, train.y).coef_.ravel()
        rand = expected_papk_score(test.y, k=k, groups=test.codes)
        print(
            f"| {n_pos} / {n_neg} / {k} | {m:g} | "
            f"{derivative(train, 'avg', d, k):.3f} | "
            f"{lp_min} | {st['gt_mean'].mean():.2f} | {curve[0]:.3f} -> "
            f"{curve[1:].min():.3f} | {warned} | {100 * test.papk(ranker.coef_, k):.1f}"
            f" / {100 * test.papk(lr, k):.1f} / {100 * rand:.1f} |"
        )


def preck_brute(pos, neg, k):
    """max over |yhat| = k of Kar et al.'s term / k, and its maximisers' coefs."""
    s = np.r_[pos, neg]
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    n, n_pos = s.size, len(pos)
    terms = []
    for chosen in itertools.combinations(range(n), k):
        yhat = np.zeros(n)
        yhat[list(chosen)] = 1.0
        n_true = int(yhat @ y)
        left = (1 - yhat) * y
        inv_c = (n_pos - k) / (n_pos - n_true) if left.any() else 0.0
        a = (yhat - y) + inv_c * left
        terms.append(((k - n_true) + a @ s, a))
    best = max(t[0] for t in terms)
    return best / k, [a / k for v, a in terms if v >= best - 1e-12]


def preck_values_by_k(part, w, k):
    """Per user with more than k rows: Kar et al.'s value and whether K = n+ wins.

    A loop over users and over the number K of relevant items in yhat (the
    maximiser for a given K takes the top K relevant and top k - K
    irrelevant items). Users with at most k rows add 0, as in the library.
    """
    s = part.X @ w
    winners, total = [], 0.0
    for u in part.used:
        P = np.sort(s[part.pos[u]])[::-1]
        N = np.sort(s[part.neg[u]])[::-1]
        if P.size + N.size <= k:
            continue
        best = (-np.inf, None)
        for K in range(max(0, k - N.size), min(P.size, k) + 1):
            below = P[K:].sum() * (k - K) / (P.size - K) if K < P.size else 0.0
            value = (k - K) + N[: k - K].sum() - below
            if value > best[0]:
                best = (value, K)
        total += best[0] / k
        winners.append(best[1] == P.size)
    return total / len(part.used), np.asarray(winners)


class _WholeListPrecAtK(SURROGATES["preck"]):
    """The previous extension: a group of n <= k rows adds (n- + sum s_neg) / k."""

    def _group_terms(self, ctx, coef):
        total = super()._group_terms(ctx, coef)
        small = ctx.defined & (ctx.n_pos + ctx.n_neg <= ctx.k)
        rows = small[ctx.codes] & ~ctx.y_pos
        coef[rows] += 1.0 / ctx.k
        return total + (ctx.n_neg[small].sum() + ctx.scores[rows].sum()) / ctx.k


class _WholeListPrecAtKRanker(PrecAtKRanker):
    def _get_surrogate(self):
        return _WholeListPrecAtK()


def preck(train, test, rng):
    section(
        "7. PrecAtKRanker: the code against the definition, and what the "
        "surrogate rewards"
    )
    n_pos = np.array([len(train.pos[u]) for u in train.used])
    n_all = n_pos + np.array([len(train.neg[u]) for u in train.used])
    lr = LogisticRegression(C=1.0, max_iter=2000).fit(train.X, train.y).coef_.ravel()
    k = 24
    fitted = PrecAtKRanker(k=k).fit(train.X, train.y, groups=train.codes)
    before = _WholeListPrecAtKRanker(k=k).fit(train.X, train.y, groups=train.codes)
    points = {
        "0": np.zeros(train.X.shape[1]),
        "logistic": lr,
        "PrecAtKRanker coef_ (k=24)": fitted.coef_,
        "previous extension's coef_ (k=24)": before.coef_,
        "random": rng.normal(size=lr.size),
    }
    n_cases = n_value_ok = n_coef_ok = n_few = 0
    worst = 0.0
    for u in rng.choice(train.used, size=40, replace=False):
        rows = rng.permutation(np.r_[train.pos[u], train.neg[u]])[:9]
        y = train.y[rows]
        if y.all() or not y.any():
            continue
        for k_small in (3, 5):
            for w in points.values():
                s = train.X[rows] @ w
                value, coef = surrogate_loss(y, s, k=k_small, surrogate="preck")
                best, maxim = preck_brute(s[y], s[~y], k_small)
                n_cases += 1
                n_few += y.sum() < k_small
                worst = max(worst, abs(value - best))
                n_value_ok += abs(value - best) <= 1e-12
                a = np.r_[coef[y], coef[~y]]
                n_coef_ok += any(np.allclose(a, m, atol=1e-12) for m in maxim)
    print(
        f"brute force over every |yhat| = k (9-row groups of MovieLens rows, k in "
        f"(3, 5), w in {list(points)}): {n_cases} cases ({n_few} with n+ < k); "
        f"value equal (1e-12) in {n_value_ok}, max difference {worst:.1e}; "
        f"subgradient equal to a maximiser's in {n_coef_ok}\n"
    )
    print(
        f"k = {k}: training users with n+ < k: {np.mean(n_pos < k):.2f}; with at "
        f"most k rows: {np.mean(n_all <= k):.2f} (median n+ {np.median(n_pos):.0f},"
        f" median rows {np.median(n_all):.0f})\n"
    )
    for label, w in (("previous extension", before.coef_), ("now", fitted.coef_)):
        value, k_is_npos = preck_values_by_k(train, w, k)
        lib = train.loss("preck", train.X @ w, k)[0]
        print(
            f"at the coef_ fitted {label}: per-user loop over K {value:.6f}, library"
            f" {lib:.6f}; among users with more than k rows, the winning term is "
            f"K = n+ (no relevant item in it) for {k_is_npos.mean():.3f}"
        )
    mean_x = train.X.mean(axis=0)
    big = np.isin(train.codes, np.array(train.used)[n_pos >= k])
    only = PrecAtKRanker(k=k).fit(train.X[big], train.y[big], groups=train.codes[big])
    rows = {
        "PrecAtKRanker, previous extension (n <= k groups: (n- + sum s_neg) / k)": (
            before.coef_
        ),
        "its -coef_": -before.coef_,
        "PrecAtKRanker now (n <= k groups left out)": fitted.coef_,
        "-mean(x) (lowers every score)": -mean_x,
        "+mean(x)": mean_x,
        "logistic regression (C=1)": lr,
        f"PrecAtKRanker on the {int(np.sum(n_pos >= k))} users with n+ >= k": (
            only.coef_
        ),
    }
    print(
        f"\n| scores (k = {k}) | train micro-pAp@k | test micro-pAp@k | cosine with "
        f"-mean(x) | mean training score |"
    )
    print("| --- | --- | --- | --- | --- |")
    for label, w in rows.items():
        cos = -(w @ mean_x) / np.linalg.norm(w) / np.linalg.norm(mean_x)
        print(
            f"| {label} | {100 * train.papk(w, k):.1f} | {100 * test.papk(w, k):.1f} "
            f"| {cos:.2f} | {np.mean(train.X @ w):.2f} |"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        rand = [
            100 * expected_papk_score(p.y, k=k, groups=p.codes) for p in (train, test)
        ]
    print(f"| random ranking | {rand[0]:.1f} | {rand[1]:.1f} | - | - |")
    print(
        "\n| k | users with at most k training rows | test micro-pAp@k: previous "
        "extension / now / random |"
    )
    print("| --- | --- | --- |")
    for k_other in (8, 16, 24):
        if k_other == k:
            old, new = before, fitted
        else:
            old = _WholeListPrecAtKRanker(k=k_other).fit(
                train.X, train.y, groups=train.codes
            )
            new = PrecAtKRanker(k=k_other).fit(train.X, train.y, groups=train.codes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            rand = expected_papk_score(test.y, k=k_other, groups=test.codes)
        print(
            f"| {k_other} | {np.mean(n_all <= k_other):.2f} | "
            f"{100 * test.papk(old.coef_, k_other):.1f} / "
            f"{100 * test.papk(new.coef_, k_other):.1f} / {100 * rand:.1f} |"
        )
    print(
        f"\nprec@k surrogate (now) along rays t * d, k = {k} (d scaled to unit "
        f"score std):\n"
    )
    print("| direction | " + " | ".join(f"t={t:g}" for t in RAY_T[:6]) + " |")
    print("| --- |" + " --- |" * 6)
    for label, d in (("-mean(x)", -mean_x), ("+mean(x)", mean_x), ("logistic", lr)):
        d = unit(d, train)
        vals = [train.loss("preck", t * (train.X @ d), k)[0] for t in RAY_T[:6]]
        print(f"| {label} | " + " | ".join(f"{v:.3f}" for v in vals) + " |")
    print(
        f"\nPrecAtKRanker(k={k}) now: objective {fitted.objective_curve_[0]:.4f} at "
        f"w_0, lowest later {fitted.objective_curve_[1:].min():.4f}, |coef_| = "
        f"{np.linalg.norm(fitted.coef_):.3f} after {fitted.n_iter_} epochs; "
        f"previous extension: {before.objective_curve_[0]:.4f} -> "
        f"{before.objective_curve_[1:].min():.4f}, |coef_| = "
        f"{np.linalg.norm(before.coef_):.3f}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--seed", type=non_negative_int, default=0, help="split seed")
    parser.add_argument("--nmf-seed", type=non_negative_int, default=0)
    parser.add_argument(
        "--lp",
        type=int,
        nargs="*",
        default=None,
        metavar="K",
        help="also solve the linear programs for these k (default "
        "8: about a minute; k = 24 ran over 20 minutes "
        "without finishing on 2 shared cores)",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print(f"# {__doc__.splitlines()[0]}\n\nCommand: `{command_line()}`  \n"
          f"Date: {today()}  \nMachine: {machine_info()}")
    train, val, test = load(args.path, args.seed, args.nmf_seed)
    print(
        f"\ntrain: {train.X.shape[0]} rows, {len(train.used)} users; split seed "
        f"{args.seed}, NMF seed {args.nmf_seed}"
    )
    rng = np.random.default_rng(0)
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    objective_runs(train, test, 8)
    found, random_dirs = directions(train, val, test, 8, rng)
    derivative_tables(train, val, test, found, random_dirs, (8, 24))
    if args.lp is not None:
        lp_certificates(train, args.lp or (8,))
    rays(train, found, 8)
    user_table(train, found, random_dirs, (8, 24))
    same_coef(train, 8)
    simulation()
    preck(train, test, rng)
    print(f"\n(total {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
