"""Users' values echoed in messages."""


def cut(value, limit=80):
    """``repr`` of a user's value, cut to ``limit`` characters.

    Examples
    --------
    >>> from skpapk.utils._messages import cut
    >>> cut("abc")
    "'abc'"
    >>> cut("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    """
    value = str(value)
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"
