"""axe-core in the browser (the `axe-playwright-python` package): a page passes when axe finds no
serious or critical violation of WCAG 2.x A/AA (2.2 included) on it.

    from tests.support.axe import assert_no_serious_violations
    assert_no_serious_violations(page)               # the whole page as it is now
    assert_no_serious_violations(page, "home page")  # a name for the failure message

    sweep = Sweep()                                  # many pages, one verdict naming them all
    sweep.check(page, "lobby"); ...; sweep.verdict()

A failure lists every serious/critical violation: rule id, impact, help text and the offending
elements (their CSS selector and the first bit of their HTML)."""
from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = {"serious", "critical"}
_axe = Axe()


# every stylesheet of the page has loaded (a board adds its own <link> when its script draws it:
# checked before, its buttons would be measured unstyled)
STYLESHEETS_LOADED = """() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet)"""


# The rules that can find a serious or critical violation: those the tags select whose own impact
# is one of those (axe gives every violation of a rule that has an impact that impact; a rule
# without one takes its checks'), read off the first run of the process, which runs them all. The
# others (a third of them, ``region`` among them, which looks at every element) could only find
# what the suite does not fail on.
_blocking_rules: list[str] = []
RULES_THAT_RAN = """(results) => [...new Set(["violations", "passes", "incomplete", "inapplicable"]
    .flatMap((kind) => results[kind].map((rule) => rule.id)))]"""
IMPACTS = """() => Object.fromEntries(axe._audit.rules.map((rule) => [rule.id, rule.impact || null]))"""


def serious_violations(page, context=None) -> list[dict]:
    """The serious and critical axe-core violations on the page (or within ``context``), once its
    stylesheets have loaded."""
    page.wait_for_function(STYLESHEETS_LOADED, timeout=10_000)
    if not page.evaluate("() => typeof window.axe === 'object'"):  # once per document (572 kB)
        page.evaluate(_axe.axe_script)
    if _blocking_rules:
        options = {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": _blocking_rules}}
    else:
        options = {"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": WCAG_TAGS}}
    results = page.evaluate("([context, options]) => axe.run(context ?? document, options)", [context, options])
    if not _blocking_rules:
        impacts = page.evaluate(IMPACTS)
        _blocking_rules.extend(rule for rule in page.evaluate(RULES_THAT_RAN, results)
                               if impacts.get(rule) in (None, *BLOCKING))
    return [v for v in results["violations"] if v.get("impact") in BLOCKING]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            target = " ".join(map(str, node.get("target", [])))
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(f"    {target}: {node.get('html', '')[:120]} -- {summary[:240]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def assert_no_serious_violations(page, name: str | None = None, context=None) -> None:
    """Fail with the list of every serious or critical accessibility violation on ``page``."""
    found = serious_violations(page, context)
    where = name or page.url
    assert not found, f"axe-core: {len(found)} serious/critical violation(s) on {where}:\n{describe(found)}"


class Sweep:
    """axe on one page after the other; ``verdict()`` fails naming every failing page."""

    def __init__(self):
        self.failures: dict[str, list[dict]] = {}
        self.checked: list[str] = []

    def check(self, page, name: str, context=None) -> None:
        self.checked.append(name)
        found = serious_violations(page, context)
        if found:
            self.failures[name] = found

    def verdict(self) -> None:
        report = "\n".join(f"{name}:\n{describe(found)}" for name, found in self.failures.items())
        assert not self.failures, (f"axe-core: serious/critical violations on {len(self.failures)} of "
                                   f"{len(self.checked)} pages:\n{report}")
