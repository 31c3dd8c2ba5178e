// The play page's "?": the game's rules in a dialog over the board, without leaving the game. The
// rules page is framed (loaded on the first opening); Escape closes the dialog, also while the
// focus is in the frame (the framed page asks for it), and the focus goes back to the "?".
const opener = document.getElementById("rules-open");
const dialog = document.getElementById("rules-dialog");
const frame = document.getElementById("rules-frame");

if (opener && dialog && frame) {
  opener.addEventListener("click", () => {
    if (!frame.getAttribute("src")) frame.setAttribute("src", opener.dataset.rules);
    dialog.showModal();
    document.getElementById("rules-close").focus();
  });
  document.getElementById("rules-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => opener.focus());
  window.addEventListener("message", (e) => {
    if (e.origin === window.location.origin && e.source === frame.contentWindow
        && e.data && e.data.rules === "close" && dialog.open) dialog.close();
  });
}
