// Load Pyodide from the site and import sqlite3: the least any simulation needs. Its phases leave
// performance marks named as python-worker.js's (bench_widgets.py's `ready` compares them).
addEventListener("message", async ({ data: indexURL }) => {
  performance.mark("python:load");
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  performance.mark("python:pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL });
  performance.mark("python:started");
  const version = pyodide.runPython("import sqlite3; sqlite3.sqlite_version");
  performance.mark("python:sqlite3");
  postMessage(version);
});
