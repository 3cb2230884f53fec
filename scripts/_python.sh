# shellcheck shell=bash
# Sourced by start.sh and test.sh: find a Python >= 3.12, make .venv, install
# a requirements file only when it changed since the last install.
#
# Why a hash stamp: pip checking ~40 pinned packages costs seconds on every
# start; the game site has no internet, so a second start must not need pip.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
VENV_PY="$VENV/bin/python"

say() {
    if [[ -t 2 ]]; then printf '\033[1m[sumrak]\033[0m %s\n' "$*" >&2; else printf '[sumrak] %s\n' "$*" >&2; fi
}
die() { say "ERROR: $*"; exit 1; }

# True if "$1" runs and is Python >= 3.12 with venv support.
_python_ok() {
    "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

find_python() {
    local candidates=() cand
    if [[ -n "${SUMRAK_PYTHON:-}" ]]; then
        candidates+=("$SUMRAK_PYTHON")
    fi
    candidates+=(python3.13 python3.12 python3)
    # pyenv's versions dirs, newest first: its shims only answer for the selected version.
    local pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
    while IFS= read -r cand; do
        candidates+=("$cand")
    done < <(ls -d "$pyenv_root"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V -r)
    for cand in "${candidates[@]}"; do
        if _python_ok "$cand"; then
            command -v "$cand" 2>/dev/null || printf '%s\n' "$cand"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    if [[ -x "$VENV_PY" ]] && _python_ok "$VENV_PY"; then
        return 0
    fi
    local python
    python="$(find_python)" || die "Python 3.12 or newer is needed; tried python3.13, python3.12, python3 and pyenv's versions. Install one, or point SUMRAK_PYTHON at it."
    if [[ -d "$VENV" ]]; then
        say "The existing .venv is broken or too old; rebuilding it."
        rm -rf "$VENV"
    fi
    say "Creating .venv with $python ($("$python" --version 2>&1))"
    "$python" -m venv "$VENV" || die "could not create .venv"
}

# Hash of a requirements file and the files it includes with -r.
_requirements_hash() {
    local file="$1" dir inc
    dir="$(dirname "$file")"
    {
        cat "$file"
        while IFS= read -r inc; do
            _requirements_hash "$dir/$inc"
        done < <(sed -n 's/^[[:space:]]*-r[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$file")
    } | sha256sum | cut -d' ' -f1
}

# ensure_requirements requirements.txt|requirements-dev.txt
ensure_requirements() {
    local file="$ROOT/$1" stamp hash
    stamp="$VENV/.sumrak-$(basename "$1").sha256"
    hash="$(_requirements_hash "$file")"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
        return 0
    fi
    say "Installing $1 into .venv (first run or the file changed)"
    # The grep drops a machine-wide pip setting's noise (a missing local index); pipefail keeps pip's status.
    "$VENV_PY" -m pip install --disable-pip-version-check --quiet -r "$file" 2>&1 |
        { grep -v 'is ignored: it is neither a file nor a directory' || true; } >&2 ||
        die "pip install -r $1 failed"
    printf '%s\n' "$hash" >"$stamp"
}
