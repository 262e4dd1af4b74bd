// The baseline page's script: on click, start the bare worker and record click -> Python ready
// (milliseconds, performance.now()) in #result's data-ms, and when it was clicked (ms since the
// epoch: performance.timeOrigin) in data-clicked.
const result = document.getElementById("result");
document.getElementById("start").addEventListener("click", (event) => {
  const clicked = event.timeStamp;
  result.dataset.state = "loading";
  const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
  worker.addEventListener("message", ({ data }) => {
    result.dataset.ms = String(performance.now() - clicked);
    result.dataset.clicked = String(performance.timeOrigin + clicked);
    result.textContent = data;
    result.dataset.state = "ready";
  });
  worker.postMessage(new URL("../pyodide/", location.href).href);
});
