"""The test settings of a server process that plays the toy coin too: the tests' settings, the
toy game registered (one line) and its board served from the tests' own static directory."""
from config.settings_test import *  # noqa: F401,F403
from config.settings_test import STATICFILES_DIRS
from tests.toygame import STATIC_DIR, register

STATICFILES_DIRS = [*STATICFILES_DIRS, STATIC_DIR]
register()
