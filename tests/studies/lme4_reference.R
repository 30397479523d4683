# The reference for ddalab's mixed model (studies/mixed_model.h): R's lme4 + lmerTest fit
#   lmer(answer ~ condition + period + (1 | participant), d, REML = TRUE)
# with Satterthwaite's degrees of freedom (summary() of lmerTest); a table with a column skill
# (a participant's rating, centred, per 100 Elo) is fitted with it as a fixed effect,
#   lmer(answer ~ condition + period + skill + (1 | participant)),
# and ddalab is run with --covariate skill.
#
#   Rscript tests/studies/lme4_reference.R generate DIR        writes the data sets of tests/studies/data/
#   Rscript tests/studies/lme4_reference.R print FILE.csv...   lmerTest's numbers (what test_mixed_model pins)
#   Rscript tests/studies/lme4_reference.R compare DDALAB FILE.csv...
#       runs `DDALAB study mixed-model FILE.csv` and compares: fixed effects and SEs to 1e-6
#       relative, variance components and the REML criterion to 1e-5, df to 1e-3 (exit 1 if not).
#
# Levels are taken in order of first appearance (as ddalab does): the first condition of a file
# is the reference; periods are a factor of their numeric values (R's order). The optimiser's
# tolerances are tightened so that the reference is lme4's optimum, not where BOBYQA stopped
# (with the defaults the variance ratio is only good to about 1e-6).
suppressPackageStartupMessages(library(lmerTest))

read_table <- function(file) {
  d <- read.csv(file, stringsAsFactors = FALSE, colClasses = c(participant = "character",
                                                                condition = "character"))
  d$participant <- factor(d$participant, levels = unique(d$participant))
  d$condition <- factor(d$condition, levels = unique(d$condition))
  d$period <- factor(d$period)
  d
}

has_skill <- function(d) "skill" %in% names(d)

fit_table <- function(file) {
  d <- read_table(file)
  control <- lmerControl(optimizer = "nloptwrap",
                         optCtrl = list(xtol_abs = 1e-14, ftol_abs = 1e-15, xtol_rel = 1e-14,
                                        maxeval = 100000))
  model <- if (has_skill(d)) answer ~ condition + period + skill + (1 | participant) else
    answer ~ condition + period + (1 | participant)
  m <- lmer(model, d, REML = TRUE, control = control)
  co <- summary(m, ddf = "Satterthwaite")$coefficients
  ci <- cbind(co[, "Estimate"] - qt(0.975, co[, "df"]) * co[, "Std. Error"],
              co[, "Estimate"] + qt(0.975, co[, "df"]) * co[, "Std. Error"])
  vc <- as.data.frame(VarCorr(m))
  rows <- data.frame(term = rownames(co), estimate = co[, "Estimate"], se = co[, "Std. Error"],
                     df = co[, "df"], t = co[, "t value"], p = co[, "Pr(>|t|)"],
                     ci95_low = ci[, 1], ci95_high = ci[, 2], stringsAsFactors = FALSE)
  extra <- data.frame(term = c("var_participant", "var_residual", "reml_criterion"),
                      estimate = c(vc$vcov[vc$grp == "participant"], vc$vcov[vc$grp == "Residual"],
                                   unname(REMLcrit(m))),
                      se = NA, df = NA, t = NA, p = NA, ci95_low = NA, ci95_high = NA)
  rbind(rows, extra)
}

generate <- function(dir) {
  dir.create(dir, showWarnings = FALSE, recursive = TRUE)
  likert <- function(x) pmin(7, pmax(1, round(x)))
  write <- function(d, name) write.csv(d, file.path(dir, name), row.names = FALSE, quote = FALSE)
  # 1. A balanced crossover: 12 participants, no-dda / e-hillclimber, 3 games each, AB or BA.
  set.seed(38001)
  d <- do.call(rbind, lapply(1:12, function(i) {
    order <- if (i %% 2 == 1) c("no-dda", "e-hillclimber") else c("e-hillclimber", "no-dda")
    bias <- rnorm(1, 0, 1)
    do.call(rbind, lapply(1:2, function(k) data.frame(
      participant = sprintf("p%02d", i), condition = order[k], period = k,
      answer = likert(4 + bias + 0.8 * (order[k] == "e-hillclimber") + 0.3 * (k == 2) +
                        rnorm(3, 0, 1)))))
  }))
  write(d, "mixed_crossover12.csv")
  # 2. Three conditions in Williams orders, 18 participants, 2 games each, with dropouts.
  set.seed(38002)
  conditions <- c("no-dda", "e-random", "e-hillclimber")
  rows <- list(c(1, 2, 3), c(2, 3, 1), c(3, 1, 2), c(1, 3, 2), c(2, 1, 3), c(3, 2, 1))
  d <- do.call(rbind, lapply(1:18, function(i) {
    order <- conditions[rows[[(i - 1) %% 6 + 1]]]
    bias <- rnorm(1, 0, 0.8)
    periods <- if (i %% 5 == 0) 1:2 else if (i == 7) 1 else 1:3  # dropouts
    do.call(rbind, lapply(periods, function(k) data.frame(
      participant = sprintf("q%02d", i), condition = order[k], period = k,
      answer = likert(4 + bias + c(0, -0.4, 0.6)[match(order[k], conditions)] + 0.2 * k +
                        rnorm(2, 0, 1.1)))))
  }))
  d <- d[-c(5, 17, 40), ]  # single answers missing
  write(d, "mixed_dropouts3.csv")
  # 3. No participant variance: lme4 estimates it at 0 (a singular fit); the first seed that does.
  for (seed in 38003:38100) {
    set.seed(seed)
    d <- do.call(rbind, lapply(1:10, function(i) {
      order <- if (i %% 2 == 1) c("a", "b") else c("b", "a")
      do.call(rbind, lapply(1:2, function(k) data.frame(
        participant = sprintf("s%02d", i), condition = order[k], period = k,
        answer = round(50 + 5 * (order[k] == "b") + rnorm(2, 0, 10), 1))))
    }))
    write(d, "mixed_singular.csv")
    m <- lmer(answer ~ condition + period + (1 | participant), d)
    if (isSingular(m)) break
  }
  # 4. Larger: 240 participants, 3 conditions x 2 games in Williams orders, 0-100 sliders.
  set.seed(38004)
  d <- do.call(rbind, lapply(1:240, function(i) {
    order <- conditions[rows[[(i - 1) %% 6 + 1]]]
    bias <- rnorm(1, 0, 12)
    do.call(rbind, lapply(1:3, function(k) data.frame(
      participant = sprintf("r%03d", i), condition = order[k], period = k,
      answer = round(pmin(100, pmax(0, 55 + bias + c(0, -3, 4)[match(order[k], conditions)] +
                                      1.5 * k + rnorm(2, 0, 15))), 1))))
  }))
  write(d, "mixed_large.csv")
  # 5. Skill as a covariate: 30 participants in a crossover, 2 games a condition, each with a
  # rating (centred, per 100 Elo) that raises the answer by 0.4 points per 100 Elo.
  set.seed(38005)
  skills <- round(rnorm(30, 0, 1.5), 3)
  skills <- round(skills - mean(skills), 3)
  d <- do.call(rbind, lapply(1:30, function(i) {
    order <- if (i %% 2 == 1) c("no-dda", "e-hillclimber") else c("e-hillclimber", "no-dda")
    bias <- rnorm(1, 0, 0.7)
    do.call(rbind, lapply(1:2, function(k) data.frame(
      participant = sprintf("k%02d", i), condition = order[k], period = k, skill = skills[i],
      answer = likert(4 + bias + 0.4 * skills[i] + 0.7 * (order[k] == "e-hillclimber") +
                        0.2 * (k == 2) + rnorm(2, 0, 1)))))
  }))
  write(d, "mixed_skill.csv")
}

print_tables <- function(files) {
  for (file in files) {
    cat("#", file, "\n")
    t <- fit_table(file)
    for (r in seq_len(nrow(t)))
      cat(t$term[r], paste(sprintf("%.17g", unlist(t[r, -1])), collapse = ","), sep = ",", "\n")
  }
}

# Relative difference, with the scale of `b` (an absolute one below `floor`).
differs <- function(a, b, tolerance, floor = 1e-8) abs(a - b) > tolerance * max(abs(b), floor)

compare <- function(ddalab, files) {
  failures <- 0
  for (file in files) {
    covariate <- if (has_skill(read_table(file))) c("--covariate", "skill") else character()
    out <- system2(ddalab, c("study", "mixed-model", file, covariate), stdout = TRUE)
    status <- attr(out, "status")
    if (!is.null(status)) stop(ddalab, " failed on ", file, " (exit ", status, ")")
    ours <- read.csv(text = out, stringsAsFactors = FALSE)
    ref <- fit_table(file)
    if (!identical(ours$term, ref$term)) {
      cat(file, ": terms differ: ", paste(ours$term, collapse = " "), " against ",
          paste(ref$term, collapse = " "), "\n")
      failures <- failures + 1
      next
    }
    variance <- ref$term %in% c("var_participant", "var_residual", "reml_criterion")
    for (r in seq_len(nrow(ref))) {
      checks <- if (variance[r]) list(estimate = 1e-5) else
        list(estimate = 1e-6, se = 1e-6, df = 1e-3, ci95_low = 1e-5, ci95_high = 1e-5)
      for (column in names(checks)) {
        a <- ours[r, column]; b <- ref[r, column]
        floor <- if (variance[r]) 1e-6 * max(ref$estimate[variance]) else 1e-8
        if (differs(a, b, checks[[column]], floor)) {
          cat(sprintf("%s: %s %s: ddalab %.12g, lmerTest %.12g\n", file, ref$term[r], column, a, b))
          failures <- failures + 1
        }
      }
    }
    cat(sprintf("%s: %d terms compared\n", file, nrow(ref)))
  }
  if (failures > 0) quit(status = 1)
  cat("ddalab's mixed model matches lme4 + lmerTest\n")
}

args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 2 && args[1] == "generate") generate(args[2]) else
if (length(args) >= 2 && args[1] == "print") print_tables(args[-1]) else
if (length(args) >= 3 && args[1] == "compare") compare(args[2], args[-(1:2)]) else {
  cat("usage: lme4_reference.R generate DIR | print FILE... | compare DDALAB FILE...\n")
  quit(status = 2)
}
