"""IBM Quantum API tokens, encrypted at rest (Fernet, key derived from CREDENTIALS_KEY or
SECRET_KEY). A saved token is never shown again and never sent to a browser: only the
worker that submits a hardware job decrypts it."""
from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.utils.translation import gettext

from classrooms.models import Classroom
from simulator.models import IBMCredential

MAX_TOKEN_LENGTH = 400


class CredentialError(ValueError):
    pass


def _fernet() -> Fernet:
    secret = getattr(settings, "CREDENTIALS_KEY", "") or settings.SECRET_KEY
    key = hashlib.sha256(b"quantum-classroom/ibm-token/" + secret.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def encrypt(token: str) -> str:
    return _fernet().encrypt(token.encode()).decode()


def decrypt(blob: str) -> str:
    try:
        return _fernet().decrypt(blob.encode()).decode()
    except InvalidToken as exc:
        raise CredentialError(gettext("The saved IBM Quantum token cannot be read (the server's key "
                                      "changed); save the token again.")) from exc


def save_token(classroom: Classroom, token: str, *, instance: str = "",
               channel: str = "ibm_quantum_platform", default_device: str = "") -> IBMCredential:
    token = (token or "").strip()
    if not token:
        raise CredentialError(gettext("Paste the API token from your IBM Quantum account."))
    if len(token) > MAX_TOKEN_LENGTH or any(c.isspace() for c in token):
        raise CredentialError(gettext("That does not look like an IBM Quantum API token."))
    if channel not in ("ibm_quantum_platform", "ibm_cloud"):
        raise CredentialError(gettext("channel must be ibm_quantum_platform or ibm_cloud"))
    credential, _ = IBMCredential.objects.update_or_create(
        classroom=classroom,
        defaults={"token_encrypted": encrypt(token), "token_hint": token[-4:],
                  "channel": channel, "instance": instance.strip()[:200],
                  "default_device": default_device.strip()[:40]})
    return credential


def delete_token(classroom: Classroom) -> None:
    IBMCredential.objects.filter(classroom=classroom).delete()


def credential_status(classroom: Classroom) -> dict:
    """What a page may show about the saved token (never the token)."""
    c = IBMCredential.objects.filter(classroom=classroom).first()
    if c is None:
        return {"saved": False}
    return {"saved": True, "hint": f"…{c.token_hint}", "channel": c.channel,
            "instance": c.instance, "default_device": c.default_device,
            "saved_at": c.saved_at.isoformat()}
