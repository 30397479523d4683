#!/bin/bash
# The committed reference of the [ratings] tests (bradleyterry_reference.txt) against R's
# BradleyTerry2 and a direct maximisation of Davidson's likelihood, recomputed live by
# bradleyterry_reference.R (1e-7). Skipped (77), saying why, without Rscript or BradleyTerry2.
# usage: bradleyterry_live.sh TESTS_RESULTS_DIR
set -euo pipefail
dir=$1
if ! command -v Rscript >/dev/null 2>&1; then
  echo "SKIPPED: Rscript not found (Debian: r-base-core r-cran-bradleyterry2)"
  exit 77
fi
if ! Rscript -e 'suppressPackageStartupMessages(library(BradleyTerry2))' >/dev/null 2>&1; then
  echo "SKIPPED: R has no BradleyTerry2 (Debian: r-cran-bradleyterry2)"
  exit 77
fi
Rscript "$dir/bradleyterry_reference.R" "$dir/ratings_reference.csv" check \
  "$dir/bradleyterry_reference.txt"
