#!/bin/bash
# ddalab's mixed model (ddalab study mixed-model) against R's lme4 + lmerTest on tests/data/,
# fitted live by tests/lme4_reference.R. Skipped (77) where R or lmerTest is not installed.
# usage: lme4_live.sh DDALAB TESTS_DIR
set -euo pipefail
ddalab=$1
tests=$2
if ! command -v Rscript >/dev/null 2>&1; then
  echo "SKIPPED: Rscript not found (Debian: r-base-core r-cran-lme4 r-cran-lmertest)"
  exit 77
fi
if ! Rscript -e 'suppressPackageStartupMessages(library(lmerTest))' >/dev/null 2>&1; then
  echo "SKIPPED: R has no lmerTest (Debian: r-cran-lme4 r-cran-lmertest)"
  exit 77
fi
Rscript "$tests/lme4_reference.R" compare "$ddalab" "$tests"/data/mixed_*.csv
