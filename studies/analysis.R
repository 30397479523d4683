# The primary analysis of a ddalab study from its tidy export (ddalab study export DIR --out
# tidy.csv; docs/user-study.md, "Export"): for each item and subscale, by lme4 + lmerTest,
#   lmer(answer ~ condition + period + (1 | participant), REML = TRUE)
# with the conditions in the protocol's order (the first is the reference) and period a factor
# (period is left out when it is confounded with condition, as ddalab does). Prints, as CSV, a row
# per item and pair of conditions (first minus second, Satterthwaite df, 95 % CI) with the
# variance components: the columns of ddalab's study-mixed.csv (no Holm column: that is ddalab's).
#
#   Rscript analysis.R tidy.csv [out.csv]
suppressPackageStartupMessages(library(lmerTest))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript analysis.R tidy.csv [out.csv]")
d <- read.csv(args[1], stringsAsFactors = FALSE, na.strings = "NA",
              colClasses = c(participant = "character", condition = "character",
                             item = "character"))
conditions <- unique(d[order(d$condition_number), "condition"])
d$condition <- factor(d$condition, levels = conditions)
d$participant <- factor(d$participant, levels = unique(d$participant))
d$period <- factor(d$period)

# lme4's optimum rather than where its optimiser stops by default (variance ratio to ~1e-6).
control <- lmerControl(optimizer = "nloptwrap",
                       optCtrl = list(xtol_abs = 1e-14, ftol_abs = 1e-15, xtol_rel = 1e-14,
                                      maxeval = 100000))

fit_item <- function(x) {
  x <- droplevels(x)
  x$condition <- factor(x$condition, levels = conditions)
  full <- model.matrix(~ condition + period, x)
  with_period <- nlevels(x$period) > 1 && qr(full)$rank == ncol(full)
  formula <- if (with_period) answer ~ condition + period + (1 | participant) else
    answer ~ condition + (1 | participant)
  m <- lmer(formula, x, REML = TRUE, control = control)
  vc <- as.data.frame(VarCorr(m))
  beta <- names(fixef(m))
  rows <- list()
  for (i in seq_along(conditions)) for (j in seq_along(conditions)) if (i < j) {
    L <- setNames(rep(0, length(beta)), beta)  # condition i minus condition j
    if (i > 1) L[paste0("condition", conditions[i])] <- 1
    L[paste0("condition", conditions[j])] <- -1
    k <- contest(m, L, joint = FALSE, confint = TRUE)
    rows[[length(rows) + 1]] <- data.frame(
      item = x$item[1], first = conditions[i], second = conditions[j],
      estimate = k$Estimate, se = k$"Std. Error", df = k$df, t = k$"t value",
      p = k$"Pr(>|t|)", ci95_low = k$lower, ci95_high = k$upper,
      participant_variance = vc$vcov[vc$grp == "participant"],
      residual_variance = vc$vcov[vc$grp == "Residual"],
      singular = as.integer(isSingular(m)), period_in_model = as.integer(with_period))
  }
  do.call(rbind, rows)
}

items <- unique(d$item)
table <- do.call(rbind, lapply(items, function(key) fit_item(d[d$item == key, ])))
if (length(args) >= 2) {
  write.csv(table, args[2], row.names = FALSE)
} else {
  write.csv(table, stdout(), row.names = FALSE)
}
