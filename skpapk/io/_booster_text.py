"""A strict check of a LightGBM booster's text before LightGBM reads it.

LightGBM's reader trusts its input: it cuts the trees at the byte offsets of
the ``tree_sizes`` line and parses them in parallel threads, where an error
aborts the process, and it follows child indices at prediction without
bounds checks. A model file is user input, so its booster text must have the
layout LightGBM 4 writes for a ranker (``PApKBoostRanker``, ``LGBMRanker``):
one tree per iteration (numeric and categorical splits, no linear trees),
each tree's children forming one binary tree over its leaves (at most
5,000 levels deep: LightGBM's ``dump_model`` recurses once per level and
crashes on deeper chains), each
categorical split pointing at its own category bitset, every number finite
but a split's ``threshold`` (``inf`` where LightGBM sends the missing values
one way and every number the other).
"""

import re

from ..utils._messages import cut

#: Header keys LightGBM writes, in order (``objective`` only for its own
#: objectives; skpapk's pairwise objectives are custom ones, and its model
#: when no feature can be split is a constant ``regression`` booster;
#: ``monotone_constraints`` only for a model trained with them).
_HEADER = ("version", "num_class", "num_tree_per_iteration", "label_index",
           "max_feature_idx", "objective", "feature_names",
           "monotone_constraints", "feature_infos", "tree_sizes")
_OPTIONAL = ("objective", "monotone_constraints")
_OBJECTIVE = re.compile(
    r"(binary|lambdarank|rank_xendcg|regression)( [a-z_]+:[0-9.eE+-]+)*")
#: The deepest tree accepted, in levels of splits: LightGBM's
#: ``Booster.dump_model`` (and ``trees_to_dataframe``) recurses once per
#: level in C++, and a chain of 10,000 leaves overflows its stack (a
#: segmentation fault; 5,000 do not). Training can grow deep trees (1,136
#: levels with ``num_leaves=2000`` on sorted data), so the bound is the
#: crash, not what training usually grows; from about 990 levels
#: ``dump_model`` raises a RecursionError (Python's ``json.loads``).
_MAX_DEPTH = 5000
#: Keys of a tree: those of one leaf, then those of its internal nodes.
_LEAF_KEYS = ("leaf_value", "leaf_weight", "leaf_count")
_NODE_KEYS = ("split_feature", "split_gain", "threshold", "decision_type",
              "left_child", "right_child", "internal_value", "internal_weight",
              "internal_count")
_INTS = {"split_feature", "decision_type", "left_child", "right_child",
         "leaf_count", "internal_count"}
_MAX_LEAVES = 131072  # LightGBM's largest num_leaves
#: Keys of a tree with categorical splits: each split's bitset of categories
#: (``cat_threshold``, 32-bit words) and where it starts and ends.
_CAT_KEYS = ("cat_boundaries", "cat_threshold")
#: Numbers as LightGBM writes them (Python's int() and float() also take
#: "1_0", other scripts' digits, "nan"..., which C++ reads differently).
_INT = re.compile(r"-?[0-9]{1,10}")
#: A word of a category bitset (LightGBM's uint32).
_WORD = re.compile(r"[0-9]{1,10}")
_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
#: A split's threshold may be infinite: LightGBM's split of the missing
#: values from every number (a feature with NaN) has ``threshold=inf``.
_INFINITE = ("inf", "-inf")


#: A feature's ``feature_infos`` entry: ``none`` (one value), ``[min:max]``
#: of a numeric feature, or a categorical feature's categories (LightGBM's
#: ``dump_model`` parses them without checks: ``[abc`` crashed it).
_INFO = re.compile(r"none|\[(-?inf|{0}):(-?inf|{0})\]"
                   r"|-?[0-9]{{1,10}}(:-?[0-9]{{1,10}})*".format(_FLOAT.pattern))


def _numbers(text, count, key, integer):
    values = text.split(" ") if text else []
    if len(values) != count:
        raise ValueError(f"{key} holds {len(values)} values, not {count}")
    pattern = _INT if integer else _FLOAT
    infinite = _INFINITE if key == "threshold" else ()
    if not all(pattern.fullmatch(v) or v in infinite for v in values):
        raise ValueError(f"{key} holds a value that is not a number")
    parsed = [int(v) if integer else float(v) for v in values]
    if not all(abs(v) < (2**31 if integer else float("inf")) or text in infinite
               for v, text in zip(parsed, values)):
        raise ValueError(f"{key} holds a value out of range")
    return parsed


def _check_categories(fields, n_cat):
    """The bitsets of a tree's ``n_cat`` categorical splits: ``cat_boundaries``
    from 0 to the number of words, not decreasing; the words unsigned 32-bit
    (LightGBM reads a split's categories between two boundaries)."""
    bounds = _numbers(fields["cat_boundaries"], n_cat + 1, "cat_boundaries", True)
    words = fields["cat_threshold"].split(" ")
    if (bounds[0] != 0 or any(b > a for a, b in zip(bounds[1:], bounds))
            or len(words) != bounds[-1]
            or not all(_WORD.fullmatch(w) and int(w) < 2**32 for w in words)):
        raise ValueError("its categorical splits' cat_boundaries and "
                         "cat_threshold are not as LightGBM writes them")


def _positive(text):
    """Whether ``text`` is a finite number > 0 (an objective's ``sigmoid:``,
    which LightGBM refuses otherwise, printing its own error)."""
    try:
        return 0 < float(text) < float("inf")
    except ValueError:
        return False


def _check_tree(block, index, n_features):
    head, _, body = block.partition("\n")
    if head != f"Tree={index}" or not block.endswith("\n\n\n"):
        raise ValueError(f"tree {index} does not start or end as LightGBM "
                         f"writes it")
    fields = dict(line.partition("=")[::2] for line in body[:-3].split("\n"))
    n, n_cat = (int(v) if _INT.fullmatch(v) else -1 for v in (
        fields.get("num_leaves", ""), fields.get("num_cat", "")))
    if fields.get("is_linear") == "1":
        raise ValueError(f"tree {index} is a linear tree (LightGBM's "
                         f"linear_tree=True), which is not supported")
    keys = {"num_leaves", "num_cat", "is_linear", "shrinkage", *_LEAF_KEYS,
            *_NODE_KEYS, *(_CAT_KEYS if n_cat > 0 else ())}
    if (set(fields) != keys or len(body[:-3].split("\n")) != len(keys)
            or not 1 <= n <= _MAX_LEAVES or not 0 <= n_cat < n
            or fields["is_linear"] != "0"):
        raise ValueError(f"tree {index} is not a tree as LightGBM writes it "
                         f"(its keys, num_leaves, num_cat or is_linear)")
    _numbers(fields["shrinkage"], 1, "shrinkage", False)
    values = {key: _numbers(fields[key], n if key in _LEAF_KEYS else n - 1, key,
                            key in _INTS)
              for key in (*_LEAF_KEYS, *_NODE_KEYS)
              if n > 1 or key in _LEAF_KEYS[:1]}
    if n == 1:
        return
    if not all(0 <= f < n_features for f in values["split_feature"]):
        raise ValueError(f"tree {index} splits on a feature it does not have")
    # bit 0: categorical; bit 1: default left; bits 2-3: the missing-value
    # rule (0-2)
    if not all(0 <= d < 16 and d >> 2 != 3 for d in values["decision_type"]):
        raise ValueError(f"tree {index} has an unknown decision_type")
    # a categorical split's threshold is the index of its bitset: each of
    # the n_cat bitsets belongs to one split
    if n_cat:
        _check_categories(fields, n_cat)
    if sorted(t for t, d in zip(values["threshold"], values["decision_type"])
              if d & 1) != list(range(n_cat)):
        raise ValueError(f"tree {index}'s categorical splits do not each point "
                         f"at one of its {n_cat} category bitsets")
    # node j's children: internal nodes after j, or leaves ~c; each node but
    # the root and each leaf exactly once (so no cycle, nothing unreachable)
    children = [(j, c) for j in range(n - 1) for c in (
        values["left_child"][j], values["right_child"][j])]
    internal = sorted(c for _, c in children if c >= 0)
    leaves = sorted(~c for _, c in children if c < 0)
    if (any(0 <= c <= j for j, c in children) or leaves != list(range(n))
            or internal != list(range(1, n - 1))):
        raise ValueError(f"tree {index}'s children do not form a binary tree")
    depth = [0] * (n - 1)  # of the internal nodes: parents come first
    for j, c in children:
        if c >= 0:
            depth[c] = depth[j] + 1
    if max(depth) + 1 > _MAX_DEPTH:
        raise ValueError(f"tree {index} is {max(depth) + 1} levels deep, more "
                         f"than the {_MAX_DEPTH} that LightGBM's dump_model "
                         f"can follow without crashing the process")


def check_booster_text(text, n_features=None):
    """Raise a ``ValueError`` saying what is wrong unless ``text`` is a
    booster of ``n_features`` features (None: as many as its header says)
    in LightGBM's own layout; return its number of trees."""
    # tree_sizes count bytes: ASCII text keeps them equal to characters
    if not text.isascii():
        raise ValueError("its booster's text is not ASCII (LightGBM counts its "
                         "trees in bytes; non-ASCII feature names are not "
                         "supported: fit on columns renamed to ASCII, or on an "
                         "array)")
    if "\0" in text or "\r" in text or not text.startswith("tree\n"):
        raise ValueError("its booster is not LightGBM's text format")
    header, sep, rest = text[5:].partition("\n\n")
    fields = [line.partition("=") for line in header.split("\n")]
    keys = [key for key, _, _ in fields]
    header = {key: value for key, _, value in fields}
    expected = [key for key in _HEADER if key not in _OPTIONAL or key in header]
    if "average_output" in keys:
        raise ValueError("its booster averages its trees (LightGBM's random "
                         "forest mode, boosting_type='rf'), which is not "
                         "supported")
    if not sep or keys != expected:
        raise ValueError(f"its booster's header must hold the lines "
                         f"{', '.join(expected)}, in that order")
    # a model trained with monotone constraints: -1, 0 or 1 a feature
    constraints = header.get("monotone_constraints")
    constraints = None if constraints is None else constraints.split(" ")
    if n_features is None:
        index = header["max_feature_idx"]
        n_features = int(index) + 1 if _INT.fullmatch(index) else 0
    if header["version"] == "v4" and (header["num_class"] != "1"
                                      or header["num_tree_per_iteration"] != "1"):
        shown = [header[key][:20] for key in  # from a file: any text
                 ("num_class", "num_tree_per_iteration")]
        raise ValueError(f"its booster is a LightGBM model of num_class="
                         f"{shown[0]!r} and num_tree_per_iteration={shown[1]!r} "
                         f"(a multiclass classifier?), not of one score per row")
    if (header["version"] != "v4" or header["label_index"] != "0"
            or header["max_feature_idx"] != str(n_features - 1)
            or len(header["feature_names"].split(" ")) != n_features
            or len(header["feature_infos"].split(" ")) != n_features
            or not all(_INFO.fullmatch(info)
                       for info in header["feature_infos"].split(" "))):
        raise ValueError(f"its booster is not a LightGBM 4 ranker of "
                         f"{n_features} features")
    if "objective" in header and not (
            _OBJECTIVE.fullmatch(header["objective"])
            and all(_positive(v) for v in re.findall(r":(\S+)", header["objective"]))):
        raise ValueError(f"its booster was trained with objective="
                         f"{cut(header['objective'], 40)}; a model file "
                         f"takes the scores of the "
                         f"objectives binary, lambdarank, rank_xendcg, "
                         f"regression (L2, without reg_sqrt) or a custom one "
                         f"(skpapk's)")
    if constraints is not None and (
            len(constraints) != n_features
            or not all(c in ("-1", "0", "1") for c in constraints)):
        raise ValueError(f"its booster's monotone_constraints line must hold "
                         f"-1, 0 or 1 for each of its {n_features} features")
    sizes = header["tree_sizes"].split(" ")
    if not all(_INT.fullmatch(size) and size[0] != "-" for size in sizes):
        raise ValueError("its booster's tree_sizes are not byte counts")
    start = 0
    for index, size in enumerate(map(int, sizes)):
        _check_tree(rest[start:start + size], index, n_features)
        start += size
    if not rest.startswith("end of trees\n", start):
        raise ValueError("its booster's trees do not end where tree_sizes says")
    return len(sizes)
