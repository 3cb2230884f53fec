#!/bin/sh
# Sumrak benchmark: see bench/README.md. Arguments go to python -m bench (--help).
cd "$(dirname "$0")/.." && exec .venv/bin/python -m bench "$@"
