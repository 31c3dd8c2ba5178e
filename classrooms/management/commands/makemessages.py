"""Django's makemessages, also extracting the JavaScript helpers of static/js/i18n.js:
``t("...", params)`` and ``nt("...", "...", n, params)`` beside ``_``/``gettext``/``ngettext``."""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    @property
    def xgettext_options(self):
        options = list(makemessages.Command.xgettext_options)
        if getattr(self, "domain", "django") == "djangojs":
            options += ["--keyword=t", "--keyword=tr", "--keyword=nt:1,2"]
        return options
