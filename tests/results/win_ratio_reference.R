# The reference of the win_ratio score-term tests in tests/results/test_score_intervals.cpp (docs/
# score-intervals.md): the expectation of the plain win_ratio squared over every outcome of a
# few games, by enumeration (dmultinom), gives the noise term S independently of ddalab's
# formula (E[V_n] = V + S / n); the score term estimates V + S / 1000 without bias.
#   Rscript tests/results/win_ratio_reference.R
popvar <- function(x) if (length(x) == 1) (x - 0.5)^2 else mean((x - mean(x))^2)
N <- 1000

# The estimator of results/aggregate.cpp written out: observed V + S_hat (1/N - 1/n).
estimate <- function(w, n) {
  p <- w / n
  k <- length(p)
  s <- if (k == 1) p * (1 - p) else (sum(p * (1 - p)) - (1 - sum(p)) * sum(p) / k) / k
  popvar(p) + s * n / (n - 1) * (1 / N - 1 / n)
}

# Every outcome of n games among the seats and draws (the last category).
outcomes <- function(n, k) {
  grid <- as.matrix(expand.grid(rep(list(0:n), k)))
  grid[rowSums(grid) <= n, , drop = FALSE]
}

check <- function(label, probs, n) {
  k <- length(probs)
  all <- outcomes(n, k)
  weight <- apply(all, 1, function(w) dmultinom(c(w, n - sum(w)), prob = c(probs, 1 - sum(probs))))
  ev <- sum(weight * apply(all, 1, function(w) popvar(w / n)))
  s <- n * (ev - popvar(probs))
  target <- popvar(probs) + s / N
  est <- sum(weight * apply(all, 1, estimate, n = n))
  cat(sprintf("%s: V %.12g  E[V_%d] %.12g  S %.12g  V+S/N %.12g  E[estimate] %.12g\n", label,
              popvar(probs), n, ev, s, target, est))
  stopifnot(abs(est - target) < 1e-13)
}
check("three seats, draws", c(0.5, 0.3, 0.15), 8)
check("one seat", 0.3, 7)
check("four seats, no draws", c(0.4, 0.3, 0.2, 0.1), 6)

# A fixed outcome: 200 games, wins 62, 55, 47, 31, 5 draws; and the same shares at 1000 games.
cat(sprintf("estimate 200 games %.12g\nestimate 1000 games %.12g plain %.12g\n",
            estimate(c(62, 55, 47, 31), 200), estimate(c(310, 275, 235, 155), 1000),
            popvar(c(310, 275, 235, 155) / 1000)))

# The term is raised to its lower bound S_hat / N: four even seats at 200 games, and the two rows
# of the scoring test (the second within the noise of 200 games).
term <- function(w, n) {
  p <- w / n
  k <- length(p)
  s <- (sum(p * (1 - p)) - (1 - sum(p)) * sum(p) / k) / k * n / (n - 1)
  sqrt(max(s / N, estimate(w, n)))
}
a <- term(c(62, 55, 47, 31), 200)
b <- term(c(52, 50, 49, 47), 200)
cat(sprintf("even 200 games %.12g\nterms %.12g %.12g ratio %.12g\n", term(c(50, 50, 50, 50), 200),
            a, b, b / a))
