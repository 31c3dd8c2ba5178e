"""The bottom of the project: what every app shares and that knows no app.

Errors (``core.errors``), the error pages (``core.pages``), JSON and body limits, the cache and
the channel layer, socket limits, the client's address, the content security policy, the
reader's language, throttles, CSV cells, QR codes, plots, memos, the deploy checks and the
``serve`` and ``compile_catalogs`` commands. ``core`` imports no app (``games``,
``classrooms``, ``simulator``) and not ``config`` (the wiring): where it needs an app's answer
it offers a hook the app registers (``core.language.register_session_language``). The import
contract in ``pyproject.toml`` (``tests/test_import_contract.py``) keeps it so.
"""
