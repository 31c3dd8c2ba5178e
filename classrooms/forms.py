from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from classrooms import names
from core import limits
from games.bots import bot_levels, resolve_level
from games.engines import list_games


class ClassroomForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Class name"),
                           widget=forms.TextInput(attrs={"placeholder": _("e.g. 10B Physics")}))


class OpenSessionForm(forms.Form):
    game = forms.ChoiceField()
    variant = forms.CharField(max_length=40, initial="basic")
    table_size = forms.IntegerField(min_value=1, max_value=9, required=False,
                                    help_text=_("Players per table (blank: the game's smallest table)."))
    bot_level = forms.CharField(max_length=20, initial="strong")
    show_odds = forms.BooleanField(required=False, initial=True, label=_("Players see the live odds"))
    waiting_room = forms.BooleanField(required=False, initial=False, label=_("Waiting room"),
                                      help_text=_("New students wait until you let them in from the dashboard."))
    max_participants = forms.IntegerField(min_value=1, max_value=settings.PARTICIPANT_CAP_MAX, required=False,
                                          initial=settings.PARTICIPANT_CAP_DEFAULT,
                                          label=gettext_lazy("Students who may join"))
    language = forms.ChoiceField(required=False, label=_("Students' language"),
                                 choices=[("", _("Each student's browser language")), *settings.LANGUAGES],
                                 help_text=_("A student who picks another language in the page header keeps it."))
    move_seconds = forms.TypedChoiceField(required=False, coerce=int, empty_value=None,
                                          label=_("Seconds per move"),
                                          help_text=_("When a player's time runs out, the random bot moves for them."))
    options = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}),
                              help_text=_("Optional game options as JSON (e.g. a starting position)."))
    # Quantum Ticket-to-Ride only: a map uploaded to the class (blank: the default map); its
    # mission level (basic, intermediate, advanced, mixed) is the variant
    ticket_map = forms.ChoiceField(required=False, label=_("Map"))

    def __init__(self, *args, ticket_maps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(g.slug, gettext(g.name)) for g in list_games()]
        self.fields["move_seconds"].choices = [("", _("No clock"))] + [
            (str(n), str(n)) for n in settings.MOVE_CLOCK_CHOICES]
        self.fields["ticket_map"].choices = [("", _("Europe (the default map)"))] + [
            (str(m.pk), m.name) for m in ticket_maps]

    def clean_options(self) -> dict:
        raw = self.cleaned_data.get("options") or ""
        if not raw.strip():
            return {}
        try:
            value = limits.loads(raw, what=gettext("The options"))
        except limits.JSONTooBig as exc:
            raise forms.ValidationError(str(exc)) from exc
        except ValueError as exc:
            raise forms.ValidationError(gettext("The options are not valid JSON: %(error)s")
                                        % {"error": limits.json_problem(exc)}) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(gettext("The options must be a JSON object."))
        return value

    def clean(self):
        data = super().clean()
        slug = data.get("game")
        if slug and data.get("bot_level"):
            data["bot_level"] = resolve_level(slug, data["bot_level"])
        if slug and data.get("bot_level") and bot_levels(slug) and data["bot_level"] not in bot_levels(slug):
            self.add_error("bot_level", gettext("Choose one of: %(levels)s.") % {"levels": ", ".join(bot_levels(slug))})
        return data


class JoinForm(forms.Form):
    code = forms.CharField(max_length=20, label=_("Join code"),
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "class": "code-input", "placeholder": "ABC234"}))
    # No max_length here: a browser's maxlength cuts a pasted name silently; names.clean_name
    # refuses a long one with the reason instead.
    name = forms.CharField(label=_("Your name"), required=False,
                           help_text=lazy(lambda: gettext("Up to %(max)d characters, in any alphabet.")
                                          % {"max": names.MAX_LENGTH}, str)(),
                           widget=forms.TextInput(attrs={"autocomplete": "nickname", "placeholder": _("First name")}))
    # a class card's code (classrooms.cards): instead of a name, the student joins as their class member
    card = forms.CharField(max_length=20, required=False, label=_("Class card (if you have one)"),
                           help_text=_("With a card you need no name: you are the same student in every lesson."),
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "class": "code-input", "placeholder": "K7QH-M3WX"}))

    def clean_name(self) -> str:
        if not self.data.get("name", "").strip() and self.data.get("card", "").strip():
            return ""  # the card says who joins
        try:
            return names.clean_name(self.cleaned_data["name"])
        except names.BadName as exc:
            raise forms.ValidationError(str(exc), code="bad_name") from exc
