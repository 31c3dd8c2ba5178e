// The one-page lesson report: its "Print" button opens the browser's print dialog.
export function reportPrint() {
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));
}
