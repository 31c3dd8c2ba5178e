"""Is this page usable on a phone, by touch alone? One check for any page, in a browser context
that is a phone (a touch screen, no hover):

    from tests.support.phone import PHONE, SMALL_PHONE, assert_phone_friendly, phone_context

    page = phone_context(chromium, PHONE).new_page()     # 375 × 667, touch, no hover
    page.goto(...)                       # or: phone_page_of(chromium, server, student, "/matches/7/")
    assert_phone_friendly(page, "lobby")                 # the whole page as it is now
    assert_phone_friendly(page, "board", within="#board", ignore=[".legend *"])

``assert_phone_friendly`` fails, naming every element at fault, on

* **sideways scrolling**: the page is wider than the phone's screen (a mobile browser zooms out
  to show an overflowing page, so ``innerWidth`` would grow with it: the phone's own width is the
  measure);
* **small targets**: a visible interactive element (link, button, form field, summary,
  ``role=button``-like element, anything in the Tab order) less than 24 × 24 CSS px
  (WCAG 2.5.8), except a link inside a sentence (the criterion's inline exception);
* **covered targets**: once scrolled into view (as a thumb would scroll, page and scroll boxes
  alike), a tap at the element's centre lands on something else (``document.elementFromPoint``);
* **small text**: visible text drawn under 12 CSS px — for SVG text the font size is multiplied
  by the drawing's scale on screen, so a map shrunk to the phone's width counts as shown.

Disabled controls are no targets; elements hidden (``display: none``, ``visibility: hidden``,
opacity 0, or 1 px "visually hidden" text for screen readers) are not checked. ``ignore`` takes
CSS selectors of elements (and their text) the caller vouches for: use it sparingly, with a
reason. The page is scrolled while checking and scrolled back afterwards.

``phone_problems`` returns the findings without asserting (a dict of lists), for a test that
wants to look at them itself."""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

PHONE = {"width": 375, "height": 667}
SMALL_PHONE = {"width": 320, "height": 568}
MIN_TARGET = 24
MIN_TEXT = 12

INTERACTIVE = ", ".join([
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=checkbox]", "[role=radio]", "[role=switch]", "[role=tab]",
    "[role=menuitem]", "[role=option]", "[role=slider]", "[tabindex]:not([tabindex='-1'])",
])

# shownTexts(root): every text drawn under ``root`` that a reader sees, with the element that
# holds it and its size on screen in CSS px (an SVG text's font size times the drawing's scale)
SHOWN_TEXTS = """const shownTexts = (root) => {
  const skip = new Set(["SCRIPT", "STYLE", "TITLE", "DESC", "OPTION", "NOSCRIPT", "TEMPLATE"]);
  const found = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || skip.has(el.tagName.toUpperCase())) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.ownerSVGElement) {
      const m = el.getScreenCTM();
      if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    found.push({ el, text, px: Math.round(size * 10) / 10 });
  }
  return found;
};"""

AUDIT = """([within, interactive, ignore, minTarget, minText]) => {
  SHOWN_TEXTS
  const root = document.querySelector(within) || document.body;
  const ignored = (el) => ignore.some((sel) => el.closest(sel));
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true,
                                              opacityProperty: true, visibilityProperty: true });
  const name = (el) => {
    const bits = [el.tagName.toLowerCase()];
    if (el.id) bits.push("#" + el.id);
    const cls = el.getAttribute("class");
    if (cls) bits.push("." + cls.trim().split(/\\s+/).slice(0, 3).join("."));
    for (const a of ["data-route", "data-city", "data-card", "data-square", "data-action", "data-seat", "data-slot", "aria-label"]) {
      if (el.hasAttribute(a)) { bits.push(`[${a}="${el.getAttribute(a).slice(0, 40)}"]`); break; }
    }
    const text = (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 30);
    return bits.join("") + (text ? ` "${text}"` : "");
  };
  const scroller = document.scrollingElement;
  const saved = { x: scroller.scrollLeft, y: scroller.scrollTop };
  const boxes = [...document.querySelectorAll("*")].filter((n) => n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight)
    .map((n) => [n, n.scrollLeft, n.scrollTop]);

  const small = [], covered = [];
  const seen = [...root.querySelectorAll(interactive)];
  if (root.matches(interactive)) seen.unshift(root);
  for (const el of seen) {
    if (ignored(el) || el.disabled || el.getAttribute("aria-disabled") === "true" || el.closest("[inert]")) continue;
    if (!shown(el)) continue;
    let r = el.getBoundingClientRect();
    if (r.width * r.height <= 4) continue;  // a 1 px "visually hidden" element
    // a link inside a sentence may be as small as its text (WCAG 2.5.8's inline exception)
    const inline = el.tagName === "A" && getComputedStyle(el).display === "inline"
      && [...el.parentElement.childNodes].some((c) => c !== el && c.nodeType === 3 && c.textContent.trim());
    if (!inline && (r.width < minTarget - 0.5 || r.height < minTarget - 0.5)) {
      small.push({ element: name(el), width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 });
    }
    el.scrollIntoView({ block: "center", inline: "center" });
    r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const mine = hit && (hit === el || el.contains(hit) || (hit.control && hit.control === el) || (el.labels && [...el.labels].includes(hit)));
    if (!mine) covered.push({ element: name(el), at: [Math.round(x), Math.round(y)], by: hit ? name(hit) : "nothing (off screen)" });
  }

  const tiny = [];
  const reported = new Set();
  for (const { el, text, px } of shownTexts(root)) {
    if (px < minText - 0.05 && !reported.has(el) && !ignored(el)) {
      reported.add(el);
      tiny.push({ element: name(el), text: text.slice(0, 40), px });
    }
  }

  for (const [n, x, y] of boxes) { n.scrollLeft = x; n.scrollTop = y; }
  scroller.scrollLeft = saved.x; scroller.scrollTop = saved.y;
  const sideways = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  return { sideways, small, covered, tiny };
}""".replace("SHOWN_TEXTS", SHOWN_TEXTS)


def phone_context(chromium, size=PHONE, **options):
    """A browser context that is a phone: the viewport ``size``, a touch screen, no hover
    (``is_mobile``), so ``(hover: none)`` and ``(pointer: coarse)`` media queries match."""
    return chromium.new_context(viewport=dict(size), has_touch=True, is_mobile=True, **options)


def phone_page_of(chromium, server, client, path: str, size=PHONE):
    """A page of ``path`` on a phone, signed in as ``client`` (a ``tests.support.clients``
    student or teacher: its cookies go into the phone's context)."""
    context = phone_context(chromium, size)
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = context.new_page()
    page.goto(server.url + path)
    return page


def phone_problems(page, within: str | None = None, ignore=(), min_target: int = MIN_TARGET,
                   min_text: int = MIN_TEXT) -> dict[str, list]:
    """What stands in a phone user's way on ``page`` (or inside the element ``within``):
    ``sideways`` (how many px the page is wider than the screen, a list of one number or empty),
    ``small`` and ``covered`` targets, ``tiny`` text; each finding names its element."""
    page.wait_for_function("""() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet)""",
                           timeout=10_000)
    # two frames drawn: the resize observers of a viewport just changed have run (a board's text
    # scale follows its drawn size, static/js/svg.js)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    # the page at rest: a tile growing in or a line sliding in is measured once its animation ends
    # (a repeated one, a target's few pulses, and long ones are not waited for: they change no
    # size or place)
    try:
        page.wait_for_function("""() => document.getAnimations().every((a) => a.playState !== 'running'
            || a.effect?.getComputedTiming().iterations > 1 || !(a.effect?.getComputedTiming().endTime <= 6000))""",
                               timeout=7_000)
    except PlaywrightTimeout:
        pass  # measured as it is

    found = page.evaluate(AUDIT, [within or "body", INTERACTIVE, list(ignore), min_target, min_text])
    width = page.viewport_size["width"]
    over = found.pop("sideways") - width
    if over > 0:  # at rest? (a layout mid-change, a toast coming in, settles within a moment)
        page.wait_for_timeout(600)
        over = page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)") - width
    found["sideways"] = [over] if over > 0 else []
    return found


def assert_phone_friendly(page, name: str = "page", within: str | None = None, ignore=(),
                          min_target: int = MIN_TARGET, min_text: int = MIN_TEXT) -> None:
    """Fails, listing each problem, unless ``page`` has no sideways scrolling, every visible
    interactive element is at least ``min_target`` px square and takes a tap at its centre, and no
    visible text is under ``min_text`` px (see the module's docstring)."""
    found = phone_problems(page, within, ignore, min_target, min_text)
    lines = []
    if found["sideways"]:
        lines.append(f"- the page is {found['sideways'][0]} px wider than the {page.viewport_size['width']} px screen")
    lines += [f"- target under {min_target}×{min_target} px: {p['element']} ({p['width']}×{p['height']})" for p in found["small"]]
    lines += [f"- target covered at its centre {p['at']}: {p['element']}, a tap lands on {p['by']}" for p in found["covered"]]
    lines += [f"- text under {min_text} px: {p['element']} ({p['px']} px)" for p in found["tiny"]]
    assert not lines, f"{name} at {page.viewport_size['width']}×{page.viewport_size['height']}: " \
                      f"not usable by touch on a phone:\n" + "\n".join(lines)
