#!/bin/bash
# The tidy export + studies/analysis.R against ddalab's own analysis: a simulated study of 8
# participants is exported, fitted by R's lme4 + lmerTest, and each condition difference (estimate,
# SE) must equal study-mixed.csv to 1e-6 relative, df to 1e-3, the variances to 1e-5.
# Skipped (77) where R or lmerTest is not installed.
# usage: export_r_live.sh DDALAB SOURCE_DIR
set -euo pipefail
ddalab=$1
src=$2
source "$(dirname "$0")/require_lmertest.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ddalab" study simulate "$src/studies/protocols/user-study-ludo.json" -n 8 --out "$work/study" \
  --effect enjoyment:e-hillclimber=1 --threads 2 >/dev/null
"$ddalab" study analyze "$work/study" --out "$work/analysis" >/dev/null
"$ddalab" study export "$work/study" --out "$work/tidy.csv" --hash-ids
Rscript "$src/studies/analysis.R" "$work/tidy.csv" "$work/r.csv"
Rscript - "$work/analysis/study-mixed.csv" "$work/r.csv" <<'RSCRIPT'
args <- commandArgs(trailingOnly = TRUE)
ours <- read.csv(args[1], stringsAsFactors = FALSE)
theirs <- read.csv(args[2], stringsAsFactors = FALSE)
if (nrow(ours) != nrow(theirs)) stop(sprintf("%d rows in ddalab, %d from R", nrow(ours), nrow(theirs)))
close <- function(a, b, tol) abs(a - b) <= tol * max(abs(b), 1e-12)
bad <- 0
for (r in seq_len(nrow(ours))) {
  o <- ours[r, ]
  k <- which(theirs$item == o$item & ((theirs$first == o$first & theirs$second == o$second) |
                                      (theirs$first == o$second & theirs$second == o$first)))
  if (length(k) != 1) stop(paste("no R row for", o$item, o$first, o$second))
  t <- theirs[k, ]
  sign <- if (t$first == o$first) 1 else -1  # the primary test keeps its registered direction
  checks <- list(estimate = c(o$estimate, sign * t$estimate, 1e-6), se = c(o$se, t$se, 1e-6),
                 df = c(o$df, t$df, 1e-3),
                 participant_variance = c(o$participant_variance, t$participant_variance, 1e-5),
                 residual_variance = c(o$residual_variance, t$residual_variance, 1e-5))
  for (name in names(checks)) {
    v <- checks[[name]]
    if (!close(v[1], v[2], v[3])) {
      bad <- bad + 1
      cat(sprintf("%s %s-%s %s: ddalab %.10g, R %.10g\n", o$item, o$first, o$second, name, v[1], v[2]))
    }
  }
}
if (bad > 0) quit(status = 1)
cat(sprintf("export + analysis.R: %d comparisons equal ddalab's study-mixed.csv\n", nrow(ours)))
RSCRIPT
