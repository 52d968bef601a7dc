"""``mypyc_attr`` for the compiled core's classes, without mypy_extensions at run time.

mypyc reads the decorator from the source (it names ``mypy_extensions.mypyc_attr`` for the type
checker); the pure Python modules run the do-nothing one below, so the package needs nothing
installed beside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*args: object, **kwargs: object) -> object:
        return lambda cls: cls
