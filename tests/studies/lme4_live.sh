#!/bin/bash
# ddalab's mixed model (ddalab study mixed-model) against R's lme4 + lmerTest on tests/studies/data/,
# fitted live by tests/studies/lme4_reference.R. Skipped (77) where R or lmerTest is not installed.
# usage: lme4_live.sh DDALAB TESTS_DIR
set -euo pipefail
ddalab=$1
tests=$2
source "$(dirname "$0")/require_lmertest.sh"
Rscript "$tests/lme4_reference.R" compare "$ddalab" "$tests"/data/mixed_*.csv
