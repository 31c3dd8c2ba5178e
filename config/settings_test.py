"""Settings for the test suite: the development values (DEBUG on, so the built-in key and plain
HTTP are allowed), set before the real settings read the environment. Server processes the
tests start inherit the same environment (tests/support/server.py). Tests of the production
defaults run subprocesses with their own environment."""
import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402,F401,F403
