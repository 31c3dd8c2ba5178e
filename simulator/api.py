"""REST API for circuit runs and statistics (in the OpenAPI schema at /api/schema/).

Match-scoped endpoints admit the match's teacher, and its players when the class allows it;
class-scoped ones (tokens, policy, session statistics) are the teacher's only. Bad input is a
400 with a message."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from classrooms.models import Classroom, ClassSession
from core.api import CappedLimitOffsetPagination
from games.errors import AppError
from simulator import credentials, devices, selectors, services
from simulator.access import StatsAccess, policy_of, stats_access
from simulator.models import Backend, QuantumPolicy, Run
from simulator.scoring import NotScorable


class RunRequestSerializer(serializers.Serializer):
    match = serializers.IntegerField(min_value=1)
    backend = serializers.ChoiceField(choices=Backend.choices)
    shots = serializers.IntegerField(min_value=1, max_value=services.MAX_SHOTS,
                                     default=services.DEFAULT_SHOTS)
    action_number = serializers.IntegerField(min_value=0, required=False, allow_null=True,
                                             help_text="the position after this many actions; default: now")
    device = serializers.CharField(required=False, allow_blank=True, default="",
                                   help_text="aer-noisy: a fake device (see /api/quantum/devices/); ibm: a device name")
    seed = serializers.IntegerField(min_value=0, max_value=2**62 - 1, required=False, allow_null=True)


class RunSerializer(serializers.Serializer):
    """A stored run (read-only)."""

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    action_number = serializers.IntegerField()
    backend = serializers.CharField()
    device = serializers.CharField()
    shots = serializers.IntegerField()
    seed = serializers.IntegerField()
    status = serializers.CharField()
    shots_done = serializers.IntegerField()
    progress = serializers.FloatField()
    error = serializers.CharField()
    job_id = serializers.CharField(allow_null=True)
    counts = serializers.JSONField(allow_null=True)
    probabilities = serializers.JSONField(allow_null=True)
    scores = serializers.JSONField(allow_null=True)
    transpiled_depth = serializers.IntegerField(allow_null=True)
    transpiled_two_qubit_gates = serializers.IntegerField(allow_null=True)
    attempts = serializers.IntegerField()
    queued_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    simulation_seconds = serializers.FloatField(allow_null=True)
    url = serializers.CharField()

OddsSerializer = inline_serializer("MatchOdds", {
    "match": serializers.IntegerField(), "game": serializers.CharField(),
    "action_number": serializers.IntegerField(), "finished": serializers.BooleanField(),
    "final_board": serializers.ListField(child=serializers.CharField(), allow_null=True),
    "sides": serializers.ListField(child=serializers.CharField()),
    "actual": serializers.ListField(child=serializers.IntegerField(), allow_null=True),
    "exact": serializers.JSONField(), "aer": serializers.JSONField(allow_null=True),
    "noisy": serializers.JSONField(allow_null=True), "ibm": serializers.JSONField(allow_null=True),
    "verdict": serializers.ListField(child=serializers.CharField()),
})

SessionStatsSerializer = inline_serializer("SessionStatistics", {
    "session": serializers.IntegerField(), "game": serializers.CharField(),
    "finished_tables": serializers.IntegerField(), "tables": serializers.JSONField(),
    "score_distribution": serializers.JSONField(), "win_rate_by_side": serializers.JSONField(),
    "win_rate_by_start": serializers.JSONField(), "mean_scores": serializers.JSONField(),
    "students": serializers.JSONField(),
})

CircuitSerializer = inline_serializer("Circuit", {
    "match": serializers.IntegerField(), "action_number": serializers.IntegerField(),
    "num_qubits": serializers.IntegerField(), "num_clbits": serializers.IntegerField(),
    "depth": serializers.IntegerField(), "qasm3": serializers.CharField(),
    "text": serializers.CharField(),
})

DevicesSerializer = inline_serializer("QuantumBackends", {
    "backends": serializers.ListField(child=serializers.DictField()),
    "noisy_devices": serializers.ListField(child=serializers.DictField()),
})

TokenSerializer = inline_serializer("IBMTokenIn", {
    "token": serializers.CharField(write_only=True),
    "instance": serializers.CharField(required=False, allow_blank=True),
    "channel": serializers.ChoiceField(choices=["ibm_quantum_platform", "ibm_cloud"], required=False),
    "default_device": serializers.CharField(required=False, allow_blank=True),
})

TokenStatusSerializer = inline_serializer("IBMTokenStatus", {
    "saved": serializers.BooleanField(), "hint": serializers.CharField(required=False),
    "channel": serializers.CharField(required=False), "instance": serializers.CharField(required=False),
    "default_device": serializers.CharField(required=False), "saved_at": serializers.CharField(required=False),
})


class PolicySerializer(serializers.ModelSerializer):
    class Meta:
        model = QuantumPolicy
        fields = ["students_may_run", "student_max_shots"]
        # the same bounds as the class page's form
        extra_kwargs = {"student_max_shots": {"min_value": 1, "max_value": services.STUDENT_MAX_SHOTS_LIMIT}}


def _stats_access(request, match_id: int) -> StatsAccess:
    access = stats_access(match_id, request.user, request.session)
    if access is None:
        raise Http404(_("No statistics here for you."))
    return access




def _action_param(request) -> int | None:
    raw = request.query_params.get("at")
    if raw in (None, ""):
        return None
    if not raw.isdigit():
        raise ValidationError({"at": "at must be an action number (0, 1, 2, …)."})
    return int(raw)


class RunList(APIView):
    permission_classes = [AllowAny]  # decided per match

    @extend_schema(parameters=[OpenApiParameter("match", int, required=True),
                               OpenApiParameter("at", int, description="only runs of this position")],
                   responses=RunSerializer(many=True), summary="Runs of a match's positions")
    def get(self, request):
        raw = request.query_params.get("match", "")
        if not raw.isdigit():
            raise AppError("bad_message", _("Give the match id: ?match=<id>."))
        access = _stats_access(request, int(raw))
        runs = selectors.runs_of(access.match, _action_param(request), public=access.public_circuit)
        paginator = CappedLimitOffsetPagination()  # a page at a time, like every API list
        page = paginator.paginate_queryset(runs, request, view=self)
        return paginator.get_paginated_response([selectors.run_payload(r) for r in page])

    @extend_schema(request=RunRequestSerializer, responses={200: RunSerializer, 201: RunSerializer},
                   summary="Ask for N shots of a position on a back end (idempotent: the same request returns the same run)")
    def post(self, request):
        data = RunRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        access = _stats_access(request, v["match"])
        req = services.RunRequest(match_id=v["match"], backend=v["backend"], shots=v["shots"],
                                  action_number=v.get("action_number"), device=v.get("device", ""),
                                  seed=v.get("seed"))
        # a refused request is an AppError, answered by core.api.exception_handler (400)
        run, created = services.request_run(req, access, user=request.user)
        run.refresh_from_db()
        return Response(selectors.run_payload(run),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RunDetail(APIView):
    permission_classes = [AllowAny]

    def _run(self, request, run_id: int) -> tuple[Run, StatsAccess]:
        run = Run.objects.filter(pk=run_id).first()
        if run is None:
            raise Http404(_("No such run."))
        access = _stats_access(request, run.match_id)
        if not access.may_see(run):
            raise Http404(_("No such run."))
        return run, access

    @extend_schema(responses=RunSerializer, summary="A run and its progress")
    def get(self, request, run_id: int):
        return Response(selectors.run_payload(self._run(request, run_id)[0]))


class RunCancel(RunDetail):
    @extend_schema(request=None, responses=RunSerializer, summary="Cancel a queued or running run")
    def post(self, request, run_id: int):
        run, access = self._run(request, run_id)
        if not access.may_cancel(run, request.user):
            raise AppError("not_yours", _("Only who asked for this run, or the teacher, may cancel it."), 403)
        if not services.cancel_run(run):
            raise AppError("run_ended", _("This run has already ended (%(status)s).") % {"status": run.status})
        run.refresh_from_db()
        return Response(selectors.run_payload(run))


class MatchOdds(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OddsSerializer, summary="This game vs the odds")
    def get(self, request, match_id: int):
        access = _stats_access(request, match_id)
        try:
            return Response(selectors.match_odds(access.match, public=access.public_circuit))
        except NotScorable as exc:
            raise AppError("no_circuit", str(exc)) from exc


class MatchCircuit(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("at", int, description="action number; default: now")],
                   responses=CircuitSerializer, summary="The position's circuit as OpenQASM 3")
    def get(self, request, match_id: int):
        from simulator.plots import circuit_text
        from simulator.positions import qasm3_of

        access = _stats_access(request, match_id)
        try:
            position = selectors.circuit_of(access.match, _action_param(request), public=access.public_circuit)
        except NotScorable as exc:
            raise AppError("no_circuit", str(exc)) from exc
        qc = position.circuit
        return Response({"match": match_id, "action_number": position.action_number,
                         "num_qubits": qc.num_qubits, "num_clbits": qc.num_clbits,
                         "depth": qc.depth(), "qasm3": qasm3_of(qc), "text": circuit_text(qc)})


class QuantumBackends(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=DevicesSerializer, summary="Back ends and noisy devices")
    def get(self, request):
        return Response({"backends": [{"name": v, "label": lbl} for v, lbl in Backend.choices],
                         "noisy_devices": devices.device_choices()})


class SessionStatistics(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=SessionStatsSerializer, summary="Class session statistics (teacher)")
    def get(self, request, session_id: int):
        session = get_object_or_404(ClassSession, pk=session_id, classroom__teacher=request.user)
        return Response(selectors.session_statistics(session))


class ClassIBMToken(APIView):
    permission_classes = [IsAuthenticated]

    def _classroom(self, request, class_id: int) -> Classroom:
        return get_object_or_404(Classroom, pk=class_id, teacher=request.user)

    @extend_schema(responses=TokenStatusSerializer, summary="Whether an IBM Quantum token is saved (never the token)")
    def get(self, request, class_id: int):
        return Response(credentials.credential_status(self._classroom(request, class_id)))

    @extend_schema(request=TokenSerializer, responses=TokenStatusSerializer,
                   summary="Save the class's IBM Quantum API token (stored encrypted, write-only)")
    def put(self, request, class_id: int):
        classroom = self._classroom(request, class_id)
        body = request.data if isinstance(request.data, dict) else {}
        try:
            credentials.save_token(classroom, str(body.get("token", "")),
                                   instance=str(body.get("instance", "") or ""),
                                   channel=str(body.get("channel", "") or "ibm_quantum_platform"),
                                   default_device=str(body.get("default_device", "") or ""))
        except credentials.CredentialError as exc:
            raise AppError("bad_token", str(exc)) from exc
        return Response(credentials.credential_status(classroom))

    @extend_schema(request=None, responses={204: None}, summary="Forget the class's IBM Quantum token")
    def delete(self, request, class_id: int):
        credentials.delete_token(self._classroom(request, class_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClassQuantumPolicy(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PolicySerializer, summary="May students run statistics of their own match?")
    def get(self, request, class_id: int):
        classroom = get_object_or_404(Classroom, pk=class_id, teacher=request.user)
        return Response(PolicySerializer(policy_of(classroom)).data)

    @extend_schema(request=PolicySerializer, responses=PolicySerializer, summary="Change the class's statistics policy")
    def put(self, request, class_id: int):
        classroom = get_object_or_404(Classroom, pk=class_id, teacher=request.user)
        policy = QuantumPolicy.objects.filter(classroom=classroom).first() or QuantumPolicy(classroom=classroom)
        data = PolicySerializer(policy, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        data.save(classroom=classroom)
        return Response(data.data)
