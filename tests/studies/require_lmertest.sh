# Sourced by the live R tests: exits 77 (CTest's skip), saying why, without Rscript or lmerTest.
if ! command -v Rscript >/dev/null 2>&1; then
  echo "SKIPPED: Rscript not found (Debian: r-base-core r-cran-lme4 r-cran-lmertest)"
  exit 77
fi
if ! Rscript -e 'suppressPackageStartupMessages(library(lmerTest))' >/dev/null 2>&1; then
  echo "SKIPPED: R has no lmerTest (Debian: r-cran-lme4 r-cran-lmertest)"
  exit 77
fi
