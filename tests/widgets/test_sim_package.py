"""builder/sim_package.py: the Python bundle the page's worker loads (and that it works there,
laid out as the worker lays it out), the widget modules with versioned imports, and the scripts on
exactly the pages that embed a simulation. No browser needed."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from builder import Config, build_site
from builder.problems import Problems
from builder.sim_package import SimPackage, python_files, version_imports
from builder.theme import Theme
from tests.conftest import ROOT, fixture_config

SCRIPTS = ROOT / "theme" / "js" / "sims"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("sims") / "site"
    build_site(Config(root=ROOT, out=out))
    return out


def bundle_of(site):
    return json.loads((site / "assets" / "py" / "simulations.json").read_text(encoding="utf-8"))["files"]


def test_the_bundle_holds_the_package_and_tinyq_beside_it(site):
    files = bundle_of(site)
    for name in ("tinyq.py", "tinyq_sql.py"):   # tinyq imports its SQL from beside it
        assert files[name] == (ROOT / "code" / "capstone" / name).read_text(encoding="utf-8")
    expected = {f"simulations/{p.relative_to(ROOT / 'simulations').as_posix()}"
                for p in (ROOT / "simulations").rglob("*.py")}
    assert "simulations/engine/params.py" in expected   # the packages, not only the top level
    assert set(files) - {"tinyq.py", "tinyq_sql.py"} == expected
    for name in expected:
        assert files[name] == (ROOT / name).read_text(encoding="utf-8"), name


def test_the_bundle_runs_laid_out_as_the_worker_lays_it_out(site, tmp_path):
    for path, text in bundle_of(site).items():
        target = tmp_path / "app" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    program = ("import json, sys; sys.path.insert(0, sys.argv[1]);"
               "from simulations.bridge import handle; import tinyq;"
               "reply = json.loads(handle(json.dumps({'op': 'create', 'id': 'w', 'sim': 'live-queue'})));"
               "print(json.dumps({'ok': reply['ok'], 'tinyq': tinyq.__file__}))")
    done = subprocess.run([sys.executable, "-c", program, str(tmp_path / "app")], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == {"ok": True, "tinyq": str(tmp_path / "app" / "tinyq.py")}   # beside, not code/capstone


def test_pages_that_embed_a_simulation_load_the_runtime_with_versioned_urls(site):
    page = (site / "05-leases.html").read_text(encoding="utf-8")
    head = page.split("</head>")[0]
    runtime = re.search(r'<script type="module" src="(assets/js/sims/runtime\.js\?v=\w{10})" fetchpriority="low" '
                        r'data-sim-python="(assets/py/simulations\.json\?v=\w{10})" data-sim-pyodide="pyodide/" '
                        r'data-sim-bytes="(\d+)"></script>', head)
    assert runtime, head[-800:]
    assert int(runtime[3]) > 10_000_000                 # the wasm, the standard library, the lock file
    assert re.search(r'<script src="assets/js/sims/file-notice\.js\?v=\w{10}" defer></script>', head)
    for name in ("index.html", "00-how-to-use.html", "18-glossary.html"):
        assert "assets/js/sims/" not in (site / name).read_text(encoding="utf-8"), name


def test_every_widget_module_imports_siblings_with_the_groups_version(site):
    served = site / "assets" / "js" / "sims"
    assert sorted(p.name for p in served.glob("*.js")) == sorted(p.name for p in SCRIPTS.glob("*.js"))
    versions = set()
    for path in served.glob("*.js"):
        for target, version in re.findall(r'from "\./([\w-]+\.js)\?v=(\w+)"', path.read_text(encoding="utf-8")):
            assert (served / target).is_file(), f"{path.name} imports a missing {target}"
            versions.add(version)
        assert not re.search(r'from "\./[\w-]+\.js"', path.read_text(encoding="utf-8")), path.name
    runtime_version = re.search(r"runtime\.js\?v=(\w+)", (site / "05-leases.html").read_text()).group(1)
    assert versions == {runtime_version}


def test_version_imports_touches_only_static_relative_imports():
    source = ('import { a } from "./a.js";\nimport "./b.js";\nconst c = await import("./c.js");\n'
              'import x from "../elsewhere.js";\nexport { d } from \'./d.js\';\n')
    assert version_imports(source, "v1") == (
        'import { a } from "./a.js?v=v1";\nimport "./b.js?v=v1";\nconst c = await import("./c.js");\n'
        'import x from "../elsewhere.js";\nexport { d } from \'./d.js?v=v1\';\n')


def test_a_changed_module_changes_every_url(tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(ROOT / "theme", theme)
    first = SimPackage(Config(root=ROOT, theme=theme), Theme(theme, Problems()), Problems()).runtime
    (theme / "js" / "sims" / "dom.js").write_text((theme / "js" / "sims" / "dom.js").read_text() + "\n// changed\n")
    second = SimPackage(Config(root=ROOT, theme=theme), Theme(theme, Problems()), Problems()).runtime
    assert first["entry"] != second["entry"] and first["python"] == second["python"]


def test_a_book_without_simulations_gets_no_python(tmp_path):
    problems = Problems()
    package = SimPackage(fixture_config(tmp_path / "site"), Theme(ROOT / "theme", problems), problems)
    assert package.runtime["python"] == "" and not list(problems)
    assert not any(path.startswith("assets/py/") for path in package.files)


def test_simulations_without_tinyq_is_a_problem(tmp_path):
    (tmp_path / "code").mkdir()
    problems = Problems()
    SimPackage(Config(root=tmp_path, simulations_dir=ROOT / "simulations"), Theme(ROOT / "theme", problems), problems)
    assert [p.message for p in problems] == ["missing: the simulations run on it in the page"]


def test_python_files_reads_every_module(tmp_path):
    (tmp_path / "sims").mkdir()
    (tmp_path / "sims" / "a.py").write_text("A = 1\n")
    (tmp_path / "sims" / "notes.txt").write_text("not Python\n")
    (tmp_path / "sims" / "inner").mkdir()
    (tmp_path / "sims" / "inner" / "b.py").write_text("B = 2\n")
    (tmp_path / "tinyq.py").write_text("Q = 1\n")
    assert python_files(tmp_path / "sims", tmp_path / "tinyq.py") == {
        "simulations/a.py": "A = 1\n", "simulations/inner/b.py": "B = 2\n", "tinyq.py": "Q = 1\n"}
