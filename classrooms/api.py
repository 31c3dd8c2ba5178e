"""REST API for teachers: classes and class sessions (teacher login required, own data only)."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from classrooms import selectors, services, ticket_maps
from classrooms.models import Classroom, ClassSession
from classrooms.standings import session_standings
from games.engines import UnknownGame
from games.errors import AppError


class ClassroomSerializer(serializers.ModelSerializer):
    class Meta:
        model = Classroom
        fields = ["id", "name", "created_at"]


class ClassSessionSerializer(serializers.ModelSerializer):
    classroom = serializers.PrimaryKeyRelatedField(queryset=Classroom.objects.none())
    ticket_map = serializers.IntegerField(required=False, write_only=True,
                                          help_text="Quantum Ticket-to-Ride: a map stored on the class")

    class Meta:
        model = ClassSession
        fields = ["id", "classroom", "game", "variant", "options", "bot_level", "show_odds", "max_participants",
                  "language", "move_seconds", "waiting_room", "format", "join_code", "status", "created_at", "ended_at",
                  "ticket_map"]
        extra_kwargs = {"max_participants": {"min_value": 1, "max_value": settings.PARTICIPANT_CAP_MAX,
                                             "required": False}}
        read_only_fields = ["format", "join_code", "status", "created_at", "ended_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None and request.user.is_authenticated:
            self.fields["classroom"].queryset = Classroom.objects.filter(teacher=request.user)

    def validate_options(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(gettext("options must be a JSON object."))
        return value

    def create(self, data):
        options = dict(data.get("options") or {})
        try:
            if data.get("ticket_map") is not None:
                if not ticket_maps.takes_maps(data["game"]):
                    raise AppError("bad_option", gettext("Only Quantum Ticket-to-Ride sessions take a map."))
                options |= ticket_maps.session_options(data["classroom"], data["ticket_map"], data["game"])
            return services.open_session(data["classroom"], data["game"], variant=data.get("variant"),
                                         options=options, bot_level=data.get("bot_level", "strong"),
                                         show_odds=data.get("show_odds", True),
                                         max_participants=data.get("max_participants"),
                                         language=data.get("language", ""),
                                         move_seconds=data.get("move_seconds"),
                                         waiting_room=data.get("waiting_room", False))
        except UnknownGame as exc:
            raise serializers.ValidationError({"game": str(exc)}) from exc


def _field(request, name: str):
    """A field of the request's JSON object (None when the body is not an object): the service
    checks it and answers in words."""
    return request.data.get(name) if isinstance(request.data, dict) else None


class ClassroomViewSet(viewsets.ModelViewSet):
    serializer_class = ClassroomSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Classroom.objects.none()
        return Classroom.objects.filter(teacher=self.request.user)

    def perform_create(self, serializer):
        serializer.save(teacher=self.request.user)

    def perform_destroy(self, instance):
        services.delete_classroom(instance)


class ClassSessionViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
                          mixins.DestroyModelMixin, viewsets.GenericViewSet):
    serializer_class = ClassSessionSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return ClassSession.objects.none()
        return ClassSession.objects.filter(classroom__teacher=self.request.user).select_related("classroom")

    def perform_destroy(self, instance):
        services.delete_session(instance)

    def _run(self, session, command, *args):
        with transaction.atomic():  # an AppError is answered by core.api.exception_handler
            command(session, *args)
        session.refresh_from_db()
        return Response(selectors.dashboard_payload(session))

    @extend_schema(request=None, summary="Seat waiting students at tables (bots fill short tables)")
    @action(detail=True, methods=["post"], url_path="auto-pair")
    def auto_pair(self, request, pk=None):
        return self._run(self.get_object(), services.auto_pair)

    @extend_schema(request=None, summary="Start every waiting table")
    @action(detail=True, methods=["post"], url_path="start-all")
    def start_all(self, request, pk=None):
        return self._run(self.get_object(), services.start_all)

    @extend_schema(request=None, summary="Pair and start the next round (the first one turns the session into rounds)")
    @action(detail=True, methods=["post"], url_path="next-round")
    def next_round(self, request, pk=None):
        return self._run(self.get_object(), services.next_round)

    @extend_schema(request=None, summary="Standings: points, tie-breaks, the tables' results (public facts)")
    @action(detail=True, methods=["get"])
    def standings(self, request, pk=None):
        return Response(session_standings(self.get_object()))

    @extend_schema(request=None, summary="Lock: no new students")
    @action(detail=True, methods=["post"])
    def lock(self, request, pk=None):
        return self._run(self.get_object(), services.set_status, ClassSession.Status.LOCKED)

    @extend_schema(request=None, summary="End the session: the join code dies")
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        return self._run(self.get_object(), services.set_status, ClassSession.Status.ENDED)

    @extend_schema(request=inline_serializer("Readmit", {"participant": serializers.IntegerField()}),
                   summary="Let a removed student back in (from the browser they used)")
    @action(detail=True, methods=["post"])
    def readmit(self, request, pk=None):
        pid = request.data.get("participant") if isinstance(request.data, dict) else None
        if type(pid) is not int:
            raise AppError("bad_message", gettext("Send {\"participant\": id}."))
        return self._run(self.get_object(), services.readmit, pid)

    @extend_schema(request=inline_serializer("WaitingRoom", {"on": serializers.BooleanField()}),
                   summary="Turn the waiting room on or off (new students wait until let in)")
    @action(detail=True, methods=["post"], url_path="waiting-room")
    def waiting_room(self, request, pk=None):
        return self._run(self.get_object(), services.set_waiting_room, _field(request, "on"))

    @extend_schema(request=inline_serializer("Admit", {"participants": serializers.JSONField(
                       help_text='a list of ids, or "all"')}),
                   summary="Let students in from the waiting room")
    @action(detail=True, methods=["post"])
    def admit(self, request, pk=None):
        return self._run(self.get_object(), services.admit, _field(request, "participants"))

    @extend_schema(request=inline_serializer("TurnAway", {"participants": serializers.JSONField(
                       help_text='a list of ids, or "all"')}),
                   summary="Turn students in the waiting room away (they are removed)")
    @action(detail=True, methods=["post"], url_path="turn-away")
    def turn_away(self, request, pk=None):
        return self._run(self.get_object(), services.turn_away, _field(request, "participants"))

    @extend_schema(request=inline_serializer("RemoveRecent", {"minutes": serializers.IntegerField()}),
                   summary="Remove everyone who joined by name in the last N minutes (class-card holders stay)")
    @action(detail=True, methods=["post"], url_path="remove-recent")
    def remove_recent(self, request, pk=None):
        return self._run(self.get_object(), services.remove_recent, _field(request, "minutes"))

    @extend_schema(request=inline_serializer("Merge", {"participant": serializers.IntegerField(),
                                                       "into": serializers.IntegerField()}),
                   summary="Merge two rows of one student: seats, moves and results go to the kept one")
    @action(detail=True, methods=["post"])
    def merge(self, request, pk=None):
        return self._run(self.get_object(), services.merge_participants, _field(request, "participant"),
                         _field(request, "into"))

    @extend_schema(request=inline_serializer("RefuseComeback", {"participant": serializers.IntegerField()}),
                   summary="Say no to a removed student's request to come back")
    @action(detail=True, methods=["post"], url_path="refuse-comeback")
    def refuse_comeback(self, request, pk=None):
        pid = _field(request, "participant")
        if type(pid) is not int:
            raise AppError("bad_message", gettext("Send {\"participant\": id}."))
        return self._run(self.get_object(), services.refuse_comeback, pid)

    @extend_schema(request=inline_serializer("ParticipantCap", {"max_participants": serializers.IntegerField()}),
                   summary="How many students may join this session")
    @action(detail=True, methods=["post"], url_path="participant-cap")
    def participant_cap(self, request, pk=None):
        cap = request.data.get("max_participants") if isinstance(request.data, dict) else None
        return self._run(self.get_object(), services.set_participant_cap, cap)

    @extend_schema(request=None, summary="Students and tables, as on the dashboard")
    @action(detail=True, methods=["get"])
    def dashboard(self, request, pk=None):
        return Response(selectors.dashboard_payload(self.get_object()))
