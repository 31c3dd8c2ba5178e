"""Plots as SVG text a page can show under its Content-Security-Policy: matplotlib on the Agg
backend, one figure at a time (pyplot keeps global state: ``LOCK``), fonts big enough for a
projector (``BIG``), inline styles turned into SVG presentation attributes (``svg_of``)."""
from __future__ import annotations

import html
import io
import re
import threading

import matplotlib

matplotlib.use("Agg")

LOCK = threading.Lock()  # pyplot keeps global state
BIG = {"font.size": 16, "axes.titlesize": 20, "axes.labelsize": 18, "xtick.labelsize": 15,
       "ytick.labelsize": 15, "legend.fontsize": 15}


def svg_of(fig) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return without_inline_styles(text[text.find("<svg"):])


_STYLE_ATTR = re.compile(r'\sstyle="([^"]*)"')
_STYLE_ELEMENT = re.compile(r"<style[^>]*>.*?</style>", re.S)


def _presentation(match: re.Match) -> str:
    attrs = []
    for declaration in match.group(1).split(";"):
        name, _, value = declaration.partition(":")
        name, value = name.strip(), value.strip()
        if re.fullmatch(r"[a-z-]+", name) and value:
            attrs.append(f' {name}="{html.escape(value, quote=True)}"')
    return "".join(attrs)


def without_inline_styles(svg: str) -> str:
    """Matplotlib's SVG with its ``style="fill: …"`` attributes as SVG presentation attributes
    (``fill="…"``) and its ``<style>`` element dropped (the same rule is in app.css), so the
    page's Content-Security-Policy (``style-src 'self'``) draws it as matplotlib meant."""
    return _STYLE_ATTR.sub(_presentation, _STYLE_ELEMENT.sub("", svg))
