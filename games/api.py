"""REST API for matches: read a match as your seat sees it, act for your seat, replay it."""
from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.access import MatchAccess, match_access
from games.bots import bot_levels
from games.broadcast import announce_match_changed
from games.engines import list_games
from games.errors import AppError
from games.models import Match
from games.selectors import match_payload, replay_frames, seat_payload


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    variants = serializers.ListField(child=serializers.CharField())
    bots = serializers.ListField(child=serializers.CharField())


class ActionSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="number of actions you have seen")
    action = serializers.JSONField(help_text="the game's action object, e.g. {\"squares\": [1, 5]}")
    seat = serializers.IntegerField(required=False, min_value=0, help_text="defaults to your seat")

    def validate_action(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("An action must be a JSON object."))
        return value


MatchStateSerializer = inline_serializer("MatchState", {
    "match": serializers.IntegerField(), "game": serializers.CharField(), "status": serializers.CharField(),
    "seq": serializers.IntegerField(), "seat": serializers.IntegerField(allow_null=True),
    "view": serializers.JSONField(), "legal": serializers.JSONField(), "to_act": serializers.JSONField(),
    "outcome": serializers.JSONField(allow_null=True),
})


class MatchAccessMixin:
    permission_classes = [AllowAny]  # access is decided per match below

    def access(self, request, match_id: int) -> MatchAccess:
        access = match_access(match_id, request.user, request.session)
        if access is None:
            raise Http404(_("No match here for you."))
        return access


class GameList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=GameSerializer(many=True), summary="The games you can play")
    def get(self, request):
        data = [{"slug": g.slug, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                 "variants": list(g.variants), "bots": list(bot_levels(g.slug))} for g in list_games()]
        return Response(GameSerializer(data, many=True).data)


class MatchDetail(MatchAccessMixin, APIView):
    @extend_schema(responses=MatchStateSerializer, summary="A match as your seat sees it")
    def get(self, request, match_id: int):
        access = self.access(request, match_id)
        match = Match.objects.get(pk=match_id)
        return Response(match_payload(match, access.view_seat, is_teacher=access.is_teacher))


class MatchActions(MatchAccessMixin, APIView):
    @extend_schema(request=ActionSerializer, responses=MatchStateSerializer,
                   summary="Act for your own seat (validated by the engine, like the live socket)")
    def post(self, request, match_id: int):
        access = self.access(request, match_id)
        body = ActionSerializer(data=request.data)
        if not body.is_valid():
            return Response({"code": "bad_action", "message": _("Send {\"seq\": n, \"action\": {...}}."),
                             "errors": body.errors}, status=400)
        seat = access.acting_seat(body.validated_data.get("seat"))
        # the service checks the seat is this browser's; its AppError is answered by
        # core.api.exception_handler (stale 409, not your seat 403, else 400)
        applied = services.submit_action(match_id, seat, body.validated_data["seq"],
                                         body.validated_data["action"], participant_ids=access.participant_ids)
        announce_match_changed(applied.match_id, applied.snapshot, applied.events)
        return Response(seat_payload(applied.snapshot, seat, events=applied.events))


class MatchReplay(MatchAccessMixin, APIView):
    @extend_schema(responses=inline_serializer("Replay", {"match": serializers.IntegerField(),
                                                          "frames": serializers.JSONField()}),
                   summary="Every step of a finished match, rebuilt from its log")
    def get(self, request, match_id: int):
        access = self.access(request, match_id)
        match = Match.objects.get(pk=match_id)
        if match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED) and not access.is_teacher:
            raise AppError("not_finished", _("The replay opens when the match is over."))
        seat = None if access.is_teacher else access.view_seat
        return Response({"match": match.pk, "game": match.game, "frames": replay_frames(match, seat)})
