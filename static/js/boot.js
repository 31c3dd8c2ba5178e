// Starts a page's script without inline code (the Content-Security-Policy allows only
// same-origin script files). The page holds
//   <script type="application/json" id="page-boot">{"module": url, "fn": name, "args": [...]}</script>
// (data, never run); an argument {"$json": id} is replaced by the JSON in that element.
// Forms with data-confirm ask first (instead of an inline onsubmit, which the CSP blocks).
document.addEventListener("submit", (e) => {
  const question = e.target.dataset && e.target.dataset.confirm;
  if (question && !window.confirm(question)) e.preventDefault();
});

const boot = document.getElementById("page-boot");
if (boot) {
  const config = JSON.parse(boot.textContent);
  const resolve = (v) => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === "object") {
      if ("$json" in v) return JSON.parse(document.getElementById(v.$json).textContent);
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    }
    return v;
  };
  import(config.module).then((mod) => mod[config.fn](...resolve(config.args)));
}
