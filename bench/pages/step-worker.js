// The step benchmark in the page's Python: bench/core_scenarios.py's live-queue scenario (16
// workers, 1,000 jobs), `steps` steps timed together, on the same simulations package the widgets
// load (the site's assets/py bundle). Posts the seconds per step.
addEventListener("message", async ({ data: { indexURL, bundleURL, scenariosURL, steps } }) => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({ indexURL });
  const { files } = await (await fetch(bundleURL)).json();
  for (const [path, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree(`/app/${path}`.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(`/app/${path}`, text);
  }
  pyodide.FS.mkdirTree("/app/bench");
  pyodide.FS.writeFile("/app/bench/core_scenarios.py", await (await fetch(scenariosURL)).text());
  const seconds = pyodide.runPython(`
import sys, time
sys.path[:0] = ["/app", "/app/bench"]
import core_scenarios
sim = core_scenarios.LiveQueue({"workers": 16, "jobs": 1000, "lease": 5, "duration": 2}, seed=0)
for _ in range(20):
    sim.step()
started = time.perf_counter()
for _ in range(${Number(steps)}):
    sim.step()
(time.perf_counter() - started) / ${Number(steps)}`);
  postMessage(seconds);
});
