#!/usr/bin/env bash
# The Linux wheel, proved where users install it: built here with the C kernel, then installed
# into a fresh virtualenv that has no C compiler (no gcc/cc on PATH, CC pointing nowhere, binary
# packages only), where README's first command must print the Perl's archived bytes with the
# kernel loaded, and mypy --strict must read the wheel's annotations (py.typed).
#
#   scripts/build_wheels.sh [OUT_DIR]     # the wheel is left in OUT_DIR (default: dist/)
#
# macOS and Windows wheels are configured for cibuildwheel ([tool.cibuildwheel] in
# pyproject.toml, .github/workflows/wheels.yml); they are not built by this script.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
out="$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# 1. Build from a clean copy of the tracked files (no build products of the checkout go in).
mkdir "$work/src"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$repo" ls-files -z | (cd "$repo" && tar --null -T - -cf -) | tar -xf - -C "$work/src"
else
  tar --exclude=./build --exclude='*.so' --exclude='*.egg-info' -cf - . | tar -xf - -C "$work/src"
fi
python3 -m pip wheel -q --no-deps --wheel-dir "$work/dist" "$work/src"
wheel="$(ls "$work"/dist/rouge155py-*.whl)"
python3 - "$wheel" <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
kernel = [n for n in names if n.startswith("rouge155py/_accel") and n.endswith(".so")]
paraeval = [n for n in names if n.startswith("rouge155py/_paraeval") and n.endswith(".so")]
needed = {
    "rouge155py/py.typed",
    "rouge155py/_accel.pyi",
    "rouge155py/_paraeval.pyi",
    "rouge155py/data/smart_common_words.txt",
    "rouge155py/cli.py",
}
missing = sorted(needed - names) + ([] if kernel else ["rouge155py/_accel*.so (the C kernel)"])
missing += [] if paraeval else ["rouge155py/_paraeval*.so (ParaEval's kernel)"]
if missing:
    sys.exit(f"build_wheels: the wheel lacks {', '.join(missing)}")
print(f"build_wheels: {sys.argv[1].rsplit('/', 1)[-1]}: {len(names)} files, kernel {kernel[0]}")
EOF

# 2. A fresh virtualenv where no C compiler can be found.
python3 -m venv "$work/venv"
bare_path="$work/venv/bin"
nocc=(env -u PYTHONPATH "PATH=$bare_path" "CC=$work/no-compiler" "CXX=$work/no-compiler")
"${nocc[@]}" python - <<'EOF'
import shutil, sys, sysconfig
found = [c for c in ("gcc", "cc", "c99", "clang", sysconfig.get_config_var("CC").split()[0]) if shutil.which(c)]
if found:
    sys.exit(f"build_wheels: a C compiler is on PATH: {found}")
EOF
"${nocc[@]}" python -m pip install -q --disable-pip-version-check --only-binary=:all: --no-build-isolation "$wheel"

# 3. README's first command, run by the installed wheel from the repository (examples/, data/).
bin="$work/venv/bin"
"${nocc[@]}" "$bin/python" -I scripts/check_installed.py "$repo"

# 4. Type checkers read the wheel's annotations.
"${nocc[@]}" "$bin/python" -m pip install -q --disable-pip-version-check --only-binary=:all: mypy
cat >"$work/user_script.py" <<'EOF'
from rouge155py import Report, Rouge

report: Report = Rouge(max_ngram=2).score(["the cat sat"], ["a cat sat down"])
summary = report.result("ROUGE-2").summary
recall: float = summary.average[0] if summary is not None else 0.0
text: str = report.to_legacy()
EOF
(cd "$work" && "${nocc[@]}" "$bin/python" -m mypy --strict --no-incremental --cache-dir=/dev/null user_script.py)

cp "$wheel" "$out/"
echo "build_wheels: ok in $((SECONDS - started)) s: $out/$(basename "$wheel")"
