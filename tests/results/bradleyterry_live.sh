#!/bin/bash
# The committed reference of the [ratings] tests (bradleyterry_reference.txt) against R's
# BradleyTerry2 and a direct maximisation of Davidson's likelihood, recomputed live by
# bradleyterry_reference.R (1e-7). Skipped (77), saying why, without Rscript or BradleyTerry2
# (the R script exits 77 itself when the package is missing).
# usage: bradleyterry_live.sh TESTS_RESULTS_DIR
set -euo pipefail
dir=$1
command -v Rscript >/dev/null 2>&1 || { echo "SKIPPED: Rscript not found (Debian: r-base-core)"; exit 77; }
Rscript "$dir/bradleyterry_reference.R" "$dir/ratings_reference.csv" check \
  "$dir/bradleyterry_reference.txt"
