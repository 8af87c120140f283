#!/usr/bin/python3
"""Execute a notebook top to bottom with nbclient; exit 1 on the first cell error.

Run it with Debian's interpreter, which has h5py, matplotlib, nbclient and ipykernel:

    /usr/bin/python3 tests/notebooks/run_notebook.py notebooks/quickstart.ipynb \\
        --trace out/quickstart/trace.h5 [--output executed.ipynb] [--timeout 300]
    /usr/bin/python3 tests/notebooks/run_notebook.py notebooks/fabric_comparison.ipynb \\
        --runs out/fabric-comparison --figures out/figures \\
        --expect-figures fabric_comparison_fct_cdf.png ...

--trace sets DCSIM_TRACE for the kernel (notebooks that read one run); --runs sets DCSIM_RUNS, a
folder holding one run directory (trace.h5 + summary.json) per variant (notebooks that compare
runs); --figures sets DCSIM_FIGURES, the folder the notebook saves its PNG figures in (created).
Each --expect-figures name must exist in that folder, non-empty, after the run: stale copies are
deleted first, so a figure the notebook no longer writes fails the test. The kernel runs in the notebook's own folder, as in
Jupyter, so the notebook's default relative paths work. The kernel is the interpreter running
this script: the installed "python3" kernelspec when it points at this interpreter, otherwise a
kernelspec written to a temporary JUPYTER_PATH (so a pyenv or venv python3 first on PATH can
never be picked up by mistake).

Exit codes: 0 all cells ran (and every expected figure was written), 1 a cell failed (its
traceback is printed) or an expected figure is missing or empty, 2 bad arguments or a missing file.
"""

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path


def same_interpreter(argv0):
    try:
        return Path(argv0).resolve() == Path(sys.executable).resolve()
    except OSError:
        return False


def choose_kernel(temp_root):
    """Name of a kernelspec that runs this interpreter, creating one under temp_root if needed."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        spec = KernelSpecManager().get_kernel_spec("python3")
        if spec.argv and same_interpreter(spec.argv[0]):
            return "python3"
    except NoSuchKernel:
        pass
    from ipykernel.kernelspec import write_kernel_spec

    name = "dcsim-python3"
    write_kernel_spec(path=str(Path(temp_root) / "kernels" / name),
                      overrides={"display_name": "dcsim (python3)"})
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(temp_root)] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p])
    return name


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--trace", type=Path, help="trace.h5 to read (sets DCSIM_TRACE)")
    parser.add_argument("--output", type=Path, help="write the executed notebook here")
    parser.add_argument("--runs", type=Path, help="folder of run directories to read (sets DCSIM_RUNS)")
    parser.add_argument("--figures", type=Path, help="folder for the PNG figures (sets DCSIM_FIGURES)")
    parser.add_argument("--expect-figures", nargs="+", default=[], metavar="PNG",
                        help="figure files the notebook must write into --figures")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell")
    args = parser.parse_args()
    if args.expect_figures and args.figures is None:
        parser.error("--expect-figures needs --figures")

    if not args.notebook.is_file():
        print(f"run_notebook: no notebook {args.notebook}", file=sys.stderr)
        return 2
    if args.trace is not None:
        if not args.trace.is_file():
            print(f"run_notebook: no trace {args.trace}", file=sys.stderr)
            return 2
        os.environ["DCSIM_TRACE"] = str(args.trace.resolve())
    if args.runs is not None:
        if not args.runs.is_dir():
            print(f"run_notebook: no runs folder {args.runs}", file=sys.stderr)
            return 2
        os.environ["DCSIM_RUNS"] = str(args.runs.resolve())
    expected = []
    if args.figures is not None:
        args.figures.mkdir(parents=True, exist_ok=True)
        os.environ["DCSIM_FIGURES"] = str(args.figures.resolve())
        expected = [args.figures / name for name in args.expect_figures]
        for figure in expected:
            figure.unlink(missing_ok=True)
    # Headless and quiet: inline figures only, and no debugpy warning about frozen modules.
    os.environ.pop("MPLBACKEND", None)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(args.notebook, as_version=4)
    with tempfile.TemporaryDirectory(prefix="dcsim-kernels-") as temp_root:
        kernel = choose_kernel(temp_root)
        client = NotebookClient(
            notebook, timeout=args.timeout, kernel_name=kernel,
            resources={"metadata": {"path": str(args.notebook.resolve().parent)}})
        try:
            client.execute()
        except CellExecutionError as error:
            # Tracebacks come with IPython's terminal colours: strip them for ctest logs.
            text = re.sub(r"\x1b\[[0-9;]*m", "", str(error))
            print(f"run_notebook: {args.notebook} failed:\n{text}", file=sys.stderr)
            return 1
        finally:
            if args.output is not None:
                nbformat.write(notebook, args.output)
    cells = sum(1 for c in notebook.cells if c.cell_type == "code")
    missing = [str(f) for f in expected if not f.is_file() or f.stat().st_size == 0]
    if missing:
        print(f"run_notebook: {args.notebook} ran but did not write (or wrote empty): "
              + ", ".join(missing), file=sys.stderr)
        return 1
    print(f"run_notebook: {args.notebook}: {cells} code cells ran without error"
          + (f", {len(expected)} figures written" if expected else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
