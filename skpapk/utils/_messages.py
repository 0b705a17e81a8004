"""Users' values echoed in messages."""


def cut(value, limit=80, *, quote=True):
    """``repr`` of a user's value (its text when not ``quote``), cut to
    ``limit`` characters.

    Examples
    --------
    >>> from skpapk.utils._messages import cut
    >>> cut("abc")
    "'abc'"
    >>> cut("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    >>> cut('"kind"', quote=False)
    '"kind"'
    """
    value = str(value)
    show = repr if quote else str
    if len(value) <= limit:
        return show(value)
    return f"{show(value[:limit])}... ({len(value)} characters)"
