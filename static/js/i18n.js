// The boards' and pages' translations: one module every script imports.
// The strings come from Django's JavaScript catalog (/jsi18n/, a same-origin script loaded by
// base.html before any module), so `gettext` here is the catalog of the page's language.
//   import { _, ngettext, t } from "./i18n.js"
//   (here without its semicolon: collectstatic would read the line as an import of this file)
//   _("Your turn")                                  -> "Tu turno"
//   t("%(name)s played %(card)s", { name, card })   -> named placeholders, like Python's %
//   nt("%(n)s card", "%(n)s cards", n)               -> plural forms, %(n)s filled in
//   tr(...) is t(...) under another name (for code with its own variable t)
// Extraction: `make messages` finds _("..."), gettext("..."), ngettext(...) and t("...") calls
// in static/ (xgettext, JavaScript), so write the English text literally inside the call.
const catalog = globalThis.django || {};

export function gettext(msgid) {
  return catalog.gettext ? catalog.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, count) {
  if (catalog.ngettext) return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

export function interpolate(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function t(msgid, params) {
  return interpolate(gettext(msgid), params);
}

export function nt(singular, plural, count, params) {
  return interpolate(ngettext(singular, plural, count), { n: count, ...(params || {}) });
}

export const _ = gettext;

export function language() {
  return document.documentElement.lang || "en";
}

// the same as t, for modules whose own code names a variable `t`
export const tr = t;
