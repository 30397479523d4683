# The reference of the [ratings] tests (results/ratings.cpp, tests/results/test_ratings.cpp): the
# pinned pairwise counts of tests/results/ratings_reference.csv (five entrants, every ordered
# pairing; the counts were drawn once from ratings 0, 80, 150, -60, 220, a first-seat advantage
# of 40 Elo and Davidson's nu = 0.5, and are fixed here) fitted
#  - draws half a win: by BradleyTerry2's BTm with a home advantage (at.home), the draws added
#    as half a win to each side (non-integer binomial counts, whose warning is suppressed), and
#    the likelihood-ratio test of alpha = beta (the deviance of the fit with them as one team);
#  - Davidson's draw parameter: by a direct maximisation of the trinomial likelihood written in
#    the ability form pi = exp(beta) (nlminb with the analytic gradient, then Newton steps on a
#    Richardson-extrapolated numerical Hessian of that gradient; standard errors from it), and
#    the likelihood-ratio test of alpha = beta by the same maximisation with them as one team.
# Ratings and the first-seat advantage on the Elo scale (x 400 / log(10)), "random" anchored at 0.
#   Rscript tests/results/bradleyterry_reference.R CSV             prints the reference
#   Rscript tests/results/bradleyterry_reference.R CSV check FILE  compares with FILE (1e-7)
if (!requireNamespace("BradleyTerry2", quietly = TRUE)) {
  cat("SKIPPED: R has no BradleyTerry2 (Debian: r-cran-bradleyterry2)\n")
  quit(status = 77)
}
suppressPackageStartupMessages(library(BradleyTerry2))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], stringsAsFactors = FALSE)
anchor <- "random"
levels <- c(anchor, setdiff(unique(c(d$first, d$second)), anchor))
elo <- 400 / log(10)

lines <- character(0)
emit <- function(model, quantity, entrant, estimate, se) {
  lines <<- c(lines, sprintf("%s %s %s %.9f %.9f", model, quantity, entrant, estimate, se))
}

# --- draws half: BradleyTerry2 ---------------------------------------------------------------
bt <- data.frame(w1 = d$first_wins + d$draws / 2, w2 = d$second_wins + d$draws / 2)
bt$first <- data.frame(team = factor(d$first, levels = levels), at.home = 1)
bt$second <- data.frame(team = factor(d$second, levels = levels), at.home = 0)
fit <- suppressWarnings(BTm(cbind(w1, w2), first, second, formula = ~ team + at.home, id = "team",
                            refcat = anchor, data = bt,
                            control = glm.control(epsilon = 1e-15, maxit = 100)))
est <- coef(fit)
se <- sqrt(diag(vcov(fit)))
for (e in levels[-1]) emit("half", "rating", e, elo * est[[paste0("team", e)]],
                           elo * se[[paste0("team", e)]])
emit("half", "first_seat", "-", elo * est[["at.home"]], elo * se[["at.home"]])
# The likelihood-ratio test that alpha and beta are equal: the fit with the two as one team.
merged <- function(x) factor(ifelse(x == "beta", "alpha", x), levels = setdiff(levels, "beta"))
bt$first <- data.frame(team = merged(d$first), at.home = 1)
bt$second <- data.frame(team = merged(d$second), at.home = 0)
tied <- suppressWarnings(BTm(cbind(w1, w2), first, second, formula = ~ team + at.home, id = "team",
                             refcat = anchor, data = bt,
                             control = glm.control(epsilon = 1e-15, maxit = 100)))
chi2 <- deviance(tied) - deviance(fit)
emit("half", "lr", "alpha_beta", chi2, pchisq(chi2, 1, lower.tail = FALSE))

# --- Davidson: the likelihood maximised directly ----------------------------------------------
# The maximum of Davidson's likelihood with the teams `first` and `second` (factors whose first
# level is the anchor): parameters, covariance and the log likelihood.
davidson <- function(first, second) {
  k <- nlevels(first)
  i1 <- as.integer(first)
  i2 <- as.integer(second)
  n <- d$first_wins + d$second_wins + d$draws
  parts <- function(th) {
    beta <- c(0, th[1:(k - 1)])
    pa <- exp(beta[i1] + th[k])     # the first seat's ability times exp(h)
    pb <- exp(beta[i2])
    dr <- exp(th[k + 1]) * sqrt(pa * pb)
    list(pa = pa, pb = pb, dr = dr, D = pa + pb + dr)
  }
  negll <- function(th) {
    p <- parts(th)
    -sum(d$first_wins * log(p$pa / p$D) + d$second_wins * log(p$pb / p$D) +
         d$draws * log(p$dr / p$D))
  }
  neggrad <- function(th) {
    p <- parts(th)
    ga <- d$first_wins + d$draws / 2 - n * (p$pa + p$dr / 2) / p$D   # d/d(beta_first)
    gb <- d$second_wins + d$draws / 2 - n * (p$pb + p$dr / 2) / p$D  # d/d(beta_second)
    gbeta <- numeric(k)
    for (r in seq_along(ga)) {
      gbeta[i1[r]] <- gbeta[i1[r]] + ga[r]
      gbeta[i2[r]] <- gbeta[i2[r]] + gb[r]
    }
    -c(gbeta[-1], sum(ga), sum(d$draws - n * p$dr / p$D))
  }
  hessianAt <- function(th) {  # Richardson extrapolation of central differences of the gradient
    central <- function(step) {
      sapply(seq_along(th), function(j) {
        e <- replace(numeric(length(th)), j, step)
        (neggrad(th + e) - neggrad(th - e)) / (2 * step)
      })
    }
    h <- (4 * central(5e-5) - central(1e-4)) / 3
    (h + t(h)) / 2
  }
  th <- nlminb(numeric(k + 1), negll, neggrad, control = list(rel.tol = 1e-15, x.tol = 1e-15,
                                                               iter.max = 1000))$par
  for (step in 1:20) {
    g <- neggrad(th)
    if (sqrt(sum(g^2)) < 1e-11) break
    th <- th - solve(hessianAt(th), g)
  }
  stopifnot(sqrt(sum(neggrad(th)^2)) < 1e-9)
  list(th = th, cov = solve(hessianAt(th)), loglik = -negll(th))
}
full <- davidson(factor(d$first, levels = levels), factor(d$second, levels = levels))
k <- length(levels)
th <- full$th
se <- sqrt(diag(full$cov))
for (j in 2:k) emit("davidson", "rating", levels[j], elo * th[j - 1], elo * se[j - 1])
emit("davidson", "first_seat", "-", elo * th[k], elo * se[k])
nu <- exp(th[k + 1])
emit("davidson", "nu", "-", nu, nu * se[k + 1])
tiedFit <- davidson(merged(d$first), merged(d$second))
chi2 <- 2 * (full$loglik - tiedFit$loglik)
emit("davidson", "lr", "alpha_beta", chi2, pchisq(chi2, 1, lower.tail = FALSE))

if (length(args) >= 3 && args[2] == "check") {
  want <- read.table(args[3], stringsAsFactors = FALSE)
  got <- read.table(text = lines, stringsAsFactors = FALSE)
  if (nrow(want) != nrow(got) || any(want[, 1:3] != got[, 1:3])) {
    cat("the reference's rows differ from R's:\n")
    writeLines(lines)
    quit(status = 1)
  }
  worst <- max(abs(as.matrix(want[, 4:5]) - as.matrix(got[, 4:5])))
  cat(sprintf("largest difference from %s: %.3g\n", args[3], worst))
  if (worst > 1e-7) {
    writeLines(lines)
    quit(status = 1)
  }
} else {
  writeLines(lines)
}
