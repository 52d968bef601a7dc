"""``python -m canasta``: the same as the ``canasta`` command."""

from canasta.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
