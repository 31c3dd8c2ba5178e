"""The glossary (locale/glossary.json): every physics and game term in en / es / pl, and the
catalogs follow it. A translation fails here when it uses a forbidden variant of a term (where
its msgid uses the English term, or anywhere for the variants listed under "everywhere"), when
a msgid uses a required term and its translation has not the chosen word, when a Spanish text
addresses the student with "usted", when a Polish text says "you" with a masculine-only past
form or a bracket / slash gender form ("został(a)", "wpuszczony(-a)", "gotowy/a"), or when a
Polish sentence puts a name after a preposition that would decline it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = json.loads((ROOT / "locale" / "glossary.json").read_text())
LANGS = ("es", "pl")
DOMAINS = ("django", "djangojs")


def entries(lang: str):
    for domain in DOMAINS:
        for e in polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po")):
            if e.obsolete:
                continue
            texts = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
            yield domain, e.msgid + (" " + e.msgid_plural if e.msgid_plural else ""), [t for t in texts if t]


def test_the_glossary_names_every_key_term_in_the_three_languages():
    terms = {t["term"] for t in GLOSSARY["terms"]}
    for key in ("control qubit / square", "measurement", "collapse", "shot (one run of a circuit measured)",
                "run (of a circuit on Aer / IBM)", "run of a path (Ticket-to-Ride journey)", "seat", "teacher",
                "Bell pair / entangled pair", "claim (a route)"):
        assert key in terms
    for t in GLOSSARY["terms"]:
        assert t["en"] and t["es"] and t["pl"], t["term"]
        for lang, patterns in t.get("forbidden", {}).items():
            assert lang in LANGS
            for p in patterns:
                re.compile(p)


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_uses_a_forbidden_variant_of_a_term(lang):
    bad = []
    everywhere = [re.compile(p, re.I) for p in GLOSSARY["everywhere"][lang]["forbidden"]]
    for domain, msgid, texts in entries(lang):
        for text in texts:
            bad += [(domain, msgid[:60], text[:80], p.pattern) for p in everywhere if p.search(text)]
            for term in GLOSSARY["terms"]:
                if not re.search(term["en"], msgid, re.I) or (term.get("not_en") and re.search(term["not_en"], msgid, re.I)):
                    continue
                for p in term.get("forbidden", {}).get(lang, []):
                    if re.search(p, text, re.I):
                        bad.append((domain, msgid[:60], text[:80], term["term"]))
    assert not bad, f"{len(bad)} translations against locale/glossary.json: {bad[:8]}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_key_term_is_translated_with_the_chosen_word(lang):
    missing = []
    for domain, msgid, texts in entries(lang):
        for term in GLOSSARY["terms"]:
            required = term.get("required", {}).get(lang)
            if not required or not re.search(term["en"], msgid, re.I):
                continue
            if term.get("not_en") and re.search(term["not_en"], msgid, re.I):
                continue
            missing += [(domain, msgid[:60], text[:80], term["term"]) for text in texts
                        if not re.search(required, text, re.I)]
    assert not missing, f"{len(missing)} translations without the glossary's word: {missing[:8]}"


def test_a_polish_name_stays_in_the_nominative():
    """ "dla %(name)s" would need the genitive of a name the code cannot decline: a sentence puts
    the name first ("%(name)s: ...") or after a noun ("gracz %(name)s")."""
    rule = GLOSSARY["pl_name_cases"]
    prepositions, names = "|".join(rule["prepositions"]), "|".join(rule["placeholders"])
    pattern = re.compile(rf"\b({prepositions}) %\(({names})\)s", re.I)
    bad = [(msgid[:60], text[:80]) for _d, msgid, texts in entries("pl") for text in texts if pattern.search(text)]
    assert not bad, bad[:8]


# "został(a)", "pole(a)", "wpuszczony(-a)", "gotowy/a", "uczeń/uczennica": a word with its other
# gender (or number) in brackets or after a slash. "%(a)s" is a placeholder (no letter before it).
PL_BRACKET_FORM = re.compile(r"[^\W\d_]\(-?[^\W\d_]{1,3}\)|\(-[^\W\d_]{1,3}\)|[^\W\d_]{2}/-?(a|o|na|ła|ka|owa)\b"
                             r"|\buczeń/uczennica\b")


def test_no_polish_text_uses_a_bracket_or_slash_gender_form():
    """Polish says a student's deed without "dołączył(a)": present tense ("dołącza"), an impersonal
    or passive form ("usunięto"), or a noun ("Zwycięstwo: %(names)s")."""
    bad = [(msgid[:60], text[:80]) for _d, msgid, texts in entries("pl") for text in texts
           if PL_BRACKET_FORM.search(text)]
    assert not bad, f"{len(bad)} Polish texts with a bracket gender form: {bad[:8]}"


def test_the_rules_catch_what_they_are_meant_to():
    """The checks themselves: the known errors of the catalogs before the glossary."""
    pl = [re.compile(p, re.I) for p in GLOSSARY["everywhere"]["pl"]["forbidden"]]
    es = [re.compile(p, re.I) for p in GLOSSARY["everywhere"]["es"]["forbidden"]]
    assert any(p.search("Zostaw moją rękę") for p in pl)
    assert any(p.search("Nie zająłeś trasy A–B.") for p in pl)
    assert not any(p.search("Twoja kolej") for p in pl)
    for wrong in ("%(name)s dołączył(a) z kartą", "nie został(a) wpuszczony(-a)", "wpuszczony (-a)",
                  "Jesteś gotowy/a?", "mierzy pole(a) 3, 7"):
        assert PL_BRACKET_FORM.search(wrong), wrong
    for right in ("pola %(a)s i %(b)s", "%(a)s–%(b)s", "krok %(i)s / %(n)s", "P(biały) = 3/4", "CX(a, b)",
                  "1/a", "input/output"):
        assert not PL_BRACKET_FORM.search(right), right
    assert any(p.search("Pulse aquí, usted elige") for p in es)
    for wrong in ("han pillado a las naves", "coge dos cartas", "La disparo 3", "el %(p)s%% de las disparos",
                  "los ejecuciones"):  # a verb or a noun the pattern replacement left behind
        assert any(p.search(wrong) for p in es), wrong
    for right in ("recoger un componente", "escoge una casilla", "la mesa", "los disparos"):
        assert not any(p.search(right) for p in es), right
    control = next(t for t in GLOSSARY["terms"] if t["term"] == "control qubit / square")
    assert re.search(control["forbidden"]["pl"][0], "Pole 3 jest kontrolą twojej CX", re.I)
    seat = next(t for t in GLOSSARY["terms"] if t["term"] == "seat")
    assert re.search(seat["forbidden"]["es"][0], "el puesto 2", re.I)
    assert not re.search(seat["forbidden"]["es"][0], "ha puesto una marca", re.I)
