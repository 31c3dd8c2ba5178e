// The header's language switcher: choosing a language sends its form at once (the button is
// there for browsers without scripts). Django's set_language remembers it in a cookie.
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}
