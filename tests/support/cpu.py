"""The CPU each test costs, its child processes included: ``--durations`` shows a test's wall
time, but most of a browser test's work is done by Chromium and the server, in other processes.
With ``QC_CPU_REPORT=<file>`` set, each test process appends one line per test to ``<file>``:
the seconds of CPU used during the test in all, then by kind (``self=`` the test process,
``chromium=`` Chromium and Playwright's driver, ``servers=`` the servers and Celery workers it
started, ``postgres=`` PostgreSQL's backends of its database, ``other=`` its other children),
then the test's id (tab-separated)::

    QC_CPU_REPORT=/tmp/cpu.tsv make test
    sort -rn /tmp/cpu.tsv | head -30

Read from /proc (Linux only). A process that ended is counted with the one that waited for it
(a closed renderer with Chromium; a server a test stopped with ``self``)."""
from __future__ import annotations

import os

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> dict[int, tuple[int, float, str]]:
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        # its own CPU and its ended children's (a renderer that closed, a server stopped)
        found[int(entry)] = (int(fields[1]), sum(int(n) for n in fields[11:15]) / TICKS, cmd)
    return found


def _kind(cmd: str) -> str:
    if "chrom" in cmd or "playwright/driver" in cmd:
        return "chromium"
    if "daphne" in cmd or "manage.py serve" in cmd or "celery" in cmd:
        return "servers"
    return "other"


def cpu_by_kind(database: str) -> dict[str, float]:
    """The CPU so far of this process, of its descendants by kind, and of PostgreSQL backends of
    ``database``."""
    procs = _processes()
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, (parent, _, _) in procs.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    totals = {"self": 0.0, "chromium": 0.0, "servers": 0.0, "postgres": 0.0, "other": 0.0}
    for pid, (_, cpu, cmd) in procs.items():
        if pid == os.getpid():
            totals["self"] += cpu
        elif pid in mine:
            totals[_kind(cmd)] += cpu
        elif cmd.startswith("postgres:") and f" {database} " in cmd:
            totals["postgres"] += cpu
    return totals
