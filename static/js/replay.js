// Step back and forth through every move of a finished match, rebuilt by the engine.
export async function replay({ boardUrl, frames, seats }) {
  const $ = (id) => document.getElementById(id);
  const { createBoard } = await import(boardUrl);
  const board = createBoard($("board"), { act() {} });
  let i = 0;
  const scrub = $("scrub");
  scrub.max = frames.length - 1;
  function show(k, animate) {
    i = Math.max(0, Math.min(frames.length - 1, k));
    const f = frames[i];
    board.render({ view: f.view, legal: [], seat: null, to_act: [], events: f.events, outcome: null, replay: true,
                   seats: Array.from({ length: seats }, (_, n) => ({ index: n })) }, { animate });
    $("step").textContent = `step ${i} / ${frames.length - 1}`;
    $("step-text").textContent = i === 0 ? "The start." : f.events.map((e) => e.text).filter(Boolean).join(" · ") || JSON.stringify(f.action);
    scrub.value = i;
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(i - 1);
  $("next").onclick = () => show(i + 1, true);
  $("last").onclick = () => show(frames.length - 1);
  scrub.oninput = () => show(Number(scrub.value));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") show(i - 1); if (e.key === "ArrowRight") show(i + 1, true); });
  show(0);
}
