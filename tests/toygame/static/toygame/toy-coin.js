// The toy coin's board (a game of the tests only): the calls so far, the scores, and a button
// per legal call. The platform's page (static/js/play.js) loads it from the URL the registry gives.
export function createBoard(root, { act }) {
  root.innerHTML = "";
  const wrap = document.createElement("div");
  wrap.className = "toy-coin";
  root.append(wrap);
  return {
    render(msg) {
      const v = msg.view;
      wrap.replaceChildren();
      const scores = document.createElement("p");
      scores.className = "toy-scores";
      scores.textContent = v.scores.join(" : ");
      wrap.append(scores);
      for (const c of v.calls) {
        const line = document.createElement("p");
        line.className = "toy-call";
        line.textContent = `${c.seat + 1}: ${c.call} / ${c.coin}`;
        wrap.append(line);
      }
      for (const action of msg.legal || []) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "button";
        b.dataset.call = action.call;
        b.textContent = action.call;
        b.addEventListener("click", () => act(action));
        wrap.append(b);
      }
    },
  };
}
