# python.sh: sourced by the bench scripts. PY is the Python every "rlx vs PyTorch" runs: the pinned
# torch's virtual environment (.venv, made by scripts/setup.sh from scripts/torch-requirements.txt),
# the same torch rlx builds against, so every comparison is version-matched (issue 51). RLX_PYTHON
# names another (a device machine's system python, or Debian's /usr/bin/python3 for its 1.13).
PY=${RLX_PYTHON:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv/bin/python}
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "bench: $PY has no torch: run scripts/setup.sh (it makes .venv with the pinned torch), or set RLX_PYTHON" >&2
  exit 1
fi
