"""The browser client's modules that have no DOM (js/connection.js, js/selection.js,
js/actions.js), tested under Node's own test runner: the tests are in ``tests/js/*.test.mjs``
(``node --test tests/js/`` runs them alone).

They need ``node`` (``make test`` installs Debian's nodejs when it is missing).  Without it they
are skipped on a developer's machine and fail in CI (CI=true), like the browser tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).parent / "js"


def test_the_client_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("node is missing: the client's tests must run in CI "
                        "(make test installs Debian's nodejs)", pytrace=False)
        pytest.skip("node is missing (make test installs it)")
    files = sorted(str(p) for p in TESTS.glob("*.test.mjs"))
    assert files, "no client tests found"
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=300,
                         check=False)
    assert run.returncode == 0, f"node --test failed:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"


def test_the_client_reads_the_catalogues_as_the_server_does() -> None:
    """js/i18n.js parsePo and canasta.i18n read the same texts from each .po file."""
    import json

    from canasta.i18n import LANGS, LOCALE, catalogue
    from canasta.web.app import STATIC

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing (make test installs it)")
    script = ("const i18n = await import(process.argv[1]);"
              "const fs = await import('node:fs');"
              "const text = fs.readFileSync(process.argv[2], 'utf8');"
              "console.log(JSON.stringify(i18n.parsePo(text)));")
    for lang in LANGS:
        run = subprocess.run([node, "--input-type=module", "-e", script, "--",
                              str(STATIC / "js" / "i18n.js"), str(LOCALE / f"{lang}.po")],
                             capture_output=True, text=True, timeout=60, check=True)
        assert json.loads(run.stdout) == catalogue(lang)
