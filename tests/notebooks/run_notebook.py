#!/usr/bin/python3
"""Execute a notebook top to bottom with nbclient; exit 1 on the first cell error.

Run it with Debian's interpreter, which has h5py, matplotlib, nbclient and ipykernel:

    /usr/bin/python3 tests/notebooks/run_notebook.py notebooks/quickstart.ipynb \\
        --trace out/quickstart/trace.h5 [--output executed.ipynb] [--timeout 300]

--trace sets DCSIM_TRACE for the kernel. The kernel runs in the notebook's own folder, as in
Jupyter, so the notebook's default relative paths work. The kernel is the interpreter running
this script: the installed "python3" kernelspec when it points at this interpreter, otherwise a
kernelspec written to a temporary JUPYTER_PATH (so a pyenv or venv python3 first on PATH can
never be picked up by mistake).

Exit codes: 0 all cells ran, 1 a cell failed (its traceback is printed), 2 bad arguments or a
missing file.
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
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell")
    args = parser.parse_args()

    if not args.notebook.is_file():
        print(f"run_notebook: no notebook {args.notebook}", file=sys.stderr)
        return 2
    if args.trace is not None:
        if not args.trace.is_file():
            print(f"run_notebook: no trace {args.trace}", file=sys.stderr)
            return 2
        os.environ["DCSIM_TRACE"] = str(args.trace.resolve())
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
    print(f"run_notebook: {args.notebook}: {cells} code cells ran without error")
    return 0


if __name__ == "__main__":
    sys.exit(main())
