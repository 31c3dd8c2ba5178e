// A class card's code travels in the link's fragment (/join/#card=K7QH-M3WX, the card's QR
// code; /homework/#card=…), which the browser never sends: it stays out of the server's and the
// proxies' access logs. This script takes it out of the address bar at once, then puts it where
// it belongs: the join form's card field (the student adds the session's join code and joins),
// or the homework form, which it posts.
const found = /(?:^#|&)card=([^&]*)/.exec(window.location.hash);
if (found) {
  const code = decodeURIComponent(found[1]).trim().slice(0, 20);
  history.replaceState(null, "", window.location.pathname + window.location.search);
  const homework = document.getElementById("homework-card");
  const join = document.getElementById("join-form");
  if (code && homework) {
    homework.querySelector("input[name=card]").value = code;
    homework.requestSubmit();
  } else if (code && join) {
    const field = join.querySelector("input[name=card]");
    field.value = code;
    const details = field.closest("details");
    if (details) details.open = true;
    const joinCode = join.querySelector("input[name=code]");
    if (joinCode && !joinCode.value) joinCode.focus();
  }
}
