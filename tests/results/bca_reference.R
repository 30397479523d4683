# The reference of the BCa test in tests/results/test_score_intervals.cpp ("BCa interval equals the
# reference formula on fixed replicates"): the same replicates and jackknife values, the interval
# computed by hand from Efron and Tibshirani (1993), ch. 14, with R's qnorm/pnorm and
# quantile(type = 7), then checked against the boot package's BCa levels when it is installed.
#   Rscript tests/results/bca_reference.R
i <- 1:40
t <- (i / 40)^2 * 3 + 0.01 * (i %% 7)   # bootstrap replicates
t0 <- 1.2                               # the estimate
jack <- c(1.10, 1.32, 0.95, 1.21, 1.18, 1.05, 1.50, 0.99, 1.12, 1.27, 1.02, 1.16, 0.90, 1.40, 1.08)

share <- (sum(t < t0) + 0.5 * sum(t == t0)) / length(t)
z0 <- qnorm(share)
d <- mean(jack) - jack
a <- sum(d^3) / (6 * sum(d^2)^1.5)
z <- qnorm(c(0.025, 0.975))
levels <- pnorm(z0 + (z0 + z) / (1 - a * (z0 + z)))
ends <- quantile(t, levels, type = 7, names = FALSE)
cat(sprintf("z0 %.10g\na %.10g\nlevels %.10g %.10g\ninterval %.10g %.10g\n",
            z0, a, levels[1], levels[2], ends[1], ends[2]))

if (requireNamespace("boot", quietly = TRUE)) {
  # boot's bca.ci takes the empirical influence values L; the jackknife's are (n - 1) d, and the
  # acceleration is scale-free, so its levels must equal ours (its ends interpolate on the normal
  # scale instead, so only the levels are compared).
  L <- (length(jack) - 1) * d
  aBoot <- sum(L^3) / (6 * sum(L^2)^1.5)
  stopifnot(abs(aBoot - a) < 1e-12)
  ci <- suppressWarnings(boot:::bca.ci(list(t0 = t0, t = matrix(t), R = length(t)), conf = 0.95, L = L))
  # bca.ci returns conf, the order-statistic positions and the ends, interpolated on the normal
  # scale at its levels: interpolating the same way at our levels must give its ends.
  ours <- suppressWarnings(boot:::norm.inter(t, levels))[, 2]
  stopifnot(max(abs(ours - ci[4:5])) < 1e-12)
  cat(sprintf("boot::bca.ci %.10g %.10g (normal-scale interpolation)\n", ci[4], ci[5]))
}
