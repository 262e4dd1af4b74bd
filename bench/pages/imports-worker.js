// Where the simulations' import goes in the page's Python: Pyodide started with Python's own
// import profiler (PYTHONPROFILEIMPORTTIME, as `python -X importtime`), sqlite3 imported as the
// bare page does, then simulations.bridge and one create. Posts {lines: the profiler's lines for
// the bridge's import, importMs, createMs (ms, performance.now())}.
addEventListener("message", async ({ data: { indexURL, bundleURL, message } }) => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const lines = [];
  const pyodide = await loadPyodide({ indexURL, env: { PYTHONPROFILEIMPORTTIME: "1" }, stderr: (line) => lines.push(line) });
  const { files } = await (await fetch(bundleURL)).json();
  for (const [path, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree(`/app/${path}`.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(`/app/${path}`, text);
  }
  pyodide.runPython("import sys, sqlite3; sys.path.insert(0, '/app')");
  lines.length = 0;
  let started = performance.now();
  const handle = pyodide.runPython("from simulations.bridge import handle; handle");
  const importMs = performance.now() - started;
  const profile = lines.splice(0);
  started = performance.now();
  const reply = handle(message);
  const createMs = performance.now() - started;
  postMessage({ lines: profile.concat(lines), importMs, createMs, replyBytes: reply.length });
});
