"""Tests of the group-aware sorting primitives against per-group brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.utils._groups import (
    count_at_least,
    rank_by_group_and_label,
    rank_within_segments,
    stable_sort_by_codes,
    top_k_of_one_segment,
)


@st.composite
def segmented(draw, max_rows=20, max_segments=4, n_values=4):
    n = draw(st.integers(0, max_rows))
    n_seg = draw(st.integers(1, max_segments))
    values = draw(st.lists(st.integers(0, n_values - 1), min_size=n, max_size=n))
    segs = draw(st.lists(st.integers(0, n_seg - 1), min_size=n, max_size=n))
    return np.array(values, dtype=float), np.array(segs, dtype=np.intp), n_seg


@settings(max_examples=300, deadline=None)
@given(scores=st.lists(st.sampled_from([-1.0, -0.0, 0.0, 0.5, 2.0, np.inf]),
                       max_size=25), k=st.integers(1, 30))
def test_top_k_of_one_segment_brute_force(scores, k):
    # the k rows of highest score, by decreasing score, ties in row order
    scores = np.array(scores, dtype=float)
    expected = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
    np.testing.assert_array_equal(top_k_of_one_segment(scores, k), expected)


@settings(max_examples=200, deadline=None)
@given(data=segmented())
def test_rank_within_segments_brute_force(data):
    scores, segs, n_seg = data
    r = rank_within_segments(scores, segs, n_seg)
    for i in range(scores.shape[0]):
        same = np.flatnonzero(segs == segs[i])
        # rows of the segment ranked before i: higher score, or equal score
        # and an earlier row (ties keep row order)
        before = sum(1 for j in same
                     if scores[j] > scores[i] or (scores[j] == scores[i] and j < i))
        assert r.rank[i] == before
    np.testing.assert_array_equal(r.counts, np.bincount(segs, minlength=n_seg))
    assert r.starts[0] == 0
    np.testing.assert_array_equal(r.starts[1:], np.cumsum(r.counts)[:-1])
    # order lists the rows by segment, then by rank
    np.testing.assert_array_equal(segs[r.order], np.sort(segs))
    np.testing.assert_array_equal(
        r.rank[r.order], np.arange(len(segs)) - np.repeat(r.starts, r.counts))


@settings(max_examples=200, deadline=None)
@given(data=segmented(), seed=st.integers(0, 999))
def test_rank_by_group_and_label_brute_force(data, seed):
    scores, codes, n_groups = data
    y_pos = np.random.RandomState(seed).rand(codes.shape[0]) < 0.5
    r = rank_by_group_and_label(y_pos, scores, codes, n_groups)
    for g in range(n_groups):
        for label in (True, False):
            rows = np.flatnonzero((codes == g) & (y_pos == label))
            expected = np.argsort(np.argsort(-scores[rows], kind="stable"),
                                  kind="stable")
            np.testing.assert_array_equal(r.rank[rows], expected)
        assert r.n_pos[g] == np.sum((codes == g) & y_pos)
        assert r.n_neg[g] == np.sum((codes == g) & ~y_pos)


@settings(max_examples=200, deadline=None)
@given(refs=segmented(), queries=segmented(), strict=st.booleans())
def test_count_at_least_brute_force(refs, queries, strict):
    ref_values, ref_codes, n1 = refs
    query_values, query_codes, n2 = queries
    n_groups = max(n1, n2)
    got = count_at_least(ref_codes, ref_values, query_codes, query_values,
                         n_groups, strict=strict)
    expected = [
        int(np.sum((ref_codes == c) & ((ref_values > v) if strict
                                       else (ref_values >= v))))
        for c, v in zip(query_codes, query_values)
    ]
    np.testing.assert_array_equal(got, expected)
    assert got.shape == query_values.shape


@pytest.mark.parametrize("n_codes", [3, 300, 70_000])
def test_stable_sort_by_codes_is_stable(n_codes):
    rng = np.random.RandomState(0)
    codes = rng.randint(0, n_codes, size=500)
    order = rng.permutation(500)
    got = stable_sort_by_codes(codes, n_codes, order)
    np.testing.assert_array_equal(codes[got], np.sort(codes))
    # equal codes keep the order given by ``order``
    position = np.empty(500, dtype=int)
    position[order] = np.arange(500)
    for c in np.unique(codes):
        rows = got[codes[got] == c]
        assert np.all(np.diff(position[rows]) > 0)
    np.testing.assert_array_equal(stable_sort_by_codes(codes, n_codes),
                                  np.argsort(codes, kind="stable"))


def test_empty_inputs():
    empty = np.zeros(0)
    codes = np.zeros(0, dtype=np.intp)
    r = rank_within_segments(empty, codes, 2)
    assert r.rank.shape == (0,) and list(r.counts) == [0, 0]
    assert count_at_least(codes, empty, codes, empty, 1).shape == (0,)


def test_tied_within_groups_matches_a_per_group_loop():
    from skpapk.utils._groups import tied_within_groups

    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        codes = rng.integers(0, 4, n)
        scores = rng.integers(0, 2, n).astype(float) * rng.integers(0, 2)
        expected = all(len(set(scores[codes == g])) <= 1 for g in np.unique(codes))
        assert tied_within_groups(scores, codes) == expected
    assert tied_within_groups(np.array([1.0, np.nan]), np.array([0, 1]))
