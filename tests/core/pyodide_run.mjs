// Run Python inside Pyodide (from node_modules, no network), with the simulations packed the
// way the page packs them: simulations/ plus tinyq.py beside it. Usage:
//   node tests/core/pyodide_run.mjs ROOT FILE.py  -> prints what the Python prints (stdout)
// Extra folders to pack: tests/core (so the golden scenarios can be imported) and bench.
import { loadPyodide } from "../../node_modules/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";

const [root, script] = process.argv.slice(2);
const py = await loadPyodide({
  indexURL: path.join(root, "node_modules", "pyodide") + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function pack(from, to, deep = false) {
  py.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isFile() && entry.name.endsWith(".py")) {
      py.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(source));
    } else if (deep && entry.isDirectory() && fs.existsSync(path.join(source, "__init__.py"))) {
      pack(source, `${to}/${entry.name}`, true);   // the simulations' packages, as the page's bundle has them
    }
  }
}
pack(path.join(root, "simulations"), "/app/simulations", true);
for (const name of ["tinyq.py", "tinyq_sql.py"]) {
  py.FS.writeFile(`/app/${name}`, fs.readFileSync(path.join(root, "code", "capstone", name)));
}
pack(path.join(root, "tests", "core"), "/app/core_tests");
pack(path.join(root, "bench"), "/app/bench");
py.runPython("import sys; sys.path[:0] = ['/app', '/app/bench']");
await py.runPythonAsync(fs.readFileSync(script, "utf8"));
