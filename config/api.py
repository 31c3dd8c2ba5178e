"""API-wide error handling: every refusal is a JSON body with a message, never a 500."""
from __future__ import annotations

from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data.setdefault("message", str(response.data["detail"]))
    return response
