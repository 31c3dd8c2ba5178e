"""The join URL as a QR code (inline SVG, for the projector)."""
from __future__ import annotations

import qrcode
import qrcode.image.svg


def qr_svg(text: str) -> str:
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    return image.to_string(encoding="unicode")
