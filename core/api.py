"""API-wide error handling: every refusal is a JSON body with a message, never a 500. The app's
own ``AppError`` answers with its code, message and status."""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from rest_framework import status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import AppError, database_unavailable


class CappedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=&offset=`` with ``limit`` at most ``API_MAX_PAGE_SIZE`` (a bigger one is that
    many): one request never builds a list of every row."""

    @property
    def max_limit(self) -> int:
        return settings.API_MAX_PAGE_SIZE


def exception_handler(exc, context):
    if isinstance(exc, AppError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, (OperationalError, InterfaceError)):  # PostgreSQL down: nothing applied
        error = database_unavailable()
        return Response(error.as_dict(), status=error.status)
    if isinstance(exc, RequestDataTooBig):
        message = "The request body is too large."
        return Response({"detail": message, "message": message}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, SuspiciousOperation):
        message = "The request was refused."
        return Response({"detail": message, "message": message}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data.setdefault("message", str(response.data["detail"]))
    return response
