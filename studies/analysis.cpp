#include "studies/analysis.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "results/significance.h"

namespace ddalab {

std::string nothingToCompare(const StudyProtocol& protocol) {
  if (protocol.conditions.size() >= 2) return "";
  return "protocol '" + protocol.name + "' has one condition (" +
         (protocol.conditions.empty() ? std::string() : protocol.conditions.front().name) +
         "): nothing to compare; its analysis reports descriptives and reliability only";
}

std::string analysisDecimals(double v, int digits) {
  if (std::isnan(v)) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

namespace {

// An answered game: its condition, answers and metrics.
struct Observation {
  size_t participant = 0;
  size_t condition = 0;
  const SessionGame* game = nullptr;
};

std::vector<Observation> observations(const StudySessions& study) {
  std::vector<Observation> all;
  for (size_t p = 0; p < study.sessions.size(); ++p)
    for (const SessionGame& g : study.sessions[p].games())
      if (g.answers) all.push_back({p, g.plan.condition, &g});
  return all;
}

// Participants' means of item `item` under condition `c` (NaN for a participant without one).
std::vector<double> participantMeans(const StudySessions& study,
                                     const std::vector<Observation>& all, size_t c, size_t item) {
  std::vector<double> sum(study.sessions.size(), 0.0), count(study.sessions.size(), 0.0);
  for (const Observation& o : all)
    if (o.condition == c) {
      sum[o.participant] += o.game->answers->values[item];
      count[o.participant] += 1;
    }
  std::vector<double> means(study.sessions.size());
  for (size_t p = 0; p < means.size(); ++p) means[p] = count[p] > 0 ? sum[p] / count[p] : NAN;
  return means;
}

void addMeans(const StudySessions& study, const std::vector<Observation>& all, StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  for (size_t c = 0; c < protocol.conditions.size(); ++c)
    for (size_t i = 0; i < protocol.items.size(); ++i) {
      StudyAnalysis::ItemMean m;
      m.condition = protocol.conditions[c].name;
      m.item = protocol.items[i].key;
      double sum = 0;
      for (const Observation& o : all)
        if (o.condition == c) {
          sum += o.game->answers->values[i];
          ++m.games;
        }
      m.mean = m.games ? sum / static_cast<double>(m.games) : NAN;
      std::vector<double> perParticipant;
      for (double v : participantMeans(study, all, c, i))
        if (!std::isnan(v)) perParticipant.push_back(v);
      m.participants = perParticipant.size();
      const PairedDifference d = pairedDifference(perParticipant);  // a one-sample t interval
      m.low = m.participants > 1 ? d.ci95Low : NAN;
      m.high = m.participants > 1 ? d.ci95High : NAN;
      a.means.push_back(m);
    }
}

// Whether (item, a, b) is the protocol's pre-registered test, in either order.
bool isPrimary(const StudyAnalysisPlan& plan, const std::string& item, const std::string& a,
               const std::string& b) {
  return item == plan.primaryItem && ((a == plan.primaryFirst && b == plan.primarySecond) ||
                                      (a == plan.primarySecond && b == plan.primaryFirst));
}

// Holm over the exploratory p-values; the primary test keeps its own p.
std::vector<double> holmExploratory(const std::vector<double>& p,
                                    const std::vector<bool>& primary) {
  std::vector<double> exploratory;
  for (size_t k = 0; k < p.size(); ++k)
    if (!primary[k]) exploratory.push_back(p[k]);
  const std::vector<double> adjusted = holmAdjust(exploratory);
  std::vector<double> out(p.size());
  for (size_t k = 0, e = 0; k < p.size(); ++k) out[k] = primary[k] ? p[k] : adjusted[e++];
  return out;
}

void addComparisons(const StudySessions& study, const std::vector<Observation>& all,
                    StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  std::vector<double> p;
  std::vector<bool> primary;
  for (size_t i = 0; i < protocol.items.size(); ++i)
    for (size_t first = 0; first < protocol.conditions.size(); ++first)
      for (size_t second = first + 1; second < protocol.conditions.size(); ++second) {
        const auto x = participantMeans(study, all, first, i);
        const auto y = participantMeans(study, all, second, i);
        std::vector<double> differences;
        for (size_t k = 0; k < x.size(); ++k)
          if (!std::isnan(x[k]) && !std::isnan(y[k])) differences.push_back(x[k] - y[k]);
        StudyAnalysis::Comparison c;
        c.item = protocol.items[i].key;
        c.first = protocol.conditions[first].name;
        c.second = protocol.conditions[second].name;
        c.meanDifference = differences.empty()
                               ? NAN
                               : std::accumulate(differences.begin(), differences.end(), 0.0) /
                                     static_cast<double>(differences.size());
        c.test = wilcoxonSignedRank(differences);
        c.primary = isPrimary(protocol.analysis, c.item, c.first, c.second);
        a.comparisons.push_back(c);
        p.push_back(c.test.p);
        primary.push_back(c.primary);
      }
  const std::vector<double> adjusted = holmExploratory(p, primary);
  for (size_t k = 0; k < a.comparisons.size(); ++k) a.comparisons[k].holmP = adjusted[k];
}

}  // namespace

namespace {

// The mixed model's data for item `item`: every answered game, period its position in its round.
MixedData mixedData(const StudySessions& study, const std::vector<Observation>& all, size_t item,
                    bool withPeriod, const StudyCovariate* covariate) {
  const size_t n = study.protocol.conditions.size();
  MixedData d;
  if (covariate) d.covariate = covariate->name;
  for (const StudySession& s : study.sessions) d.participants.push_back(s.participant());
  for (const StudyCondition& c : study.protocol.conditions) d.conditions.push_back(c.name);
  for (size_t k = 1; k <= (withPeriod ? n : 1); ++k) d.periods.push_back(std::to_string(k));
  for (const Observation& o : all) {
    if (covariate && !covariate->values.at(o.participant)) continue;
    d.observations.push_back({o.participant, o.condition,
                              withPeriod ? studyPeriod(study.protocol, o.game->plan) - 1 : 0,
                              o.game->answers->values[item],
                              covariate ? *covariate->values[o.participant] : 0.0});
  }
  return d;
}

// The item's fit with period, or without it when period and condition are confounded.
std::optional<MixedFit> fitItem(const StudySessions& study, const std::vector<Observation>& all,
                                size_t item, const StudyCovariate* covariate,
                                StudyAnalysis::MixedItem& m) {
  std::optional<MixedFit> fit =
      fitMixedModel(mixedData(study, all, item, true, covariate), &m.failure);
  if (!fit && m.failure.find("condition and period are confounded") != std::string::npos) {
    m.withPeriod = false;
    fit = fitMixedModel(mixedData(study, all, item, false, covariate), &m.failure);
  }
  if (!fit) return fit;
  m.failure.clear();
  m.participantVariance = fit->participantVariance;
  m.residualVariance = fit->residualVariance;
  m.remlCriterion = fit->remlCriterion;
  m.singular = fit->singular;
  m.participants = fit->participants;
  if (covariate) m.covariate = mixedCoefficient(*fit, covariate->name);
  return fit;
}

void addMixedModels(const StudySessions& study, const std::vector<Observation>& all,
                    const StudyCovariate* covariate, StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  std::vector<double> p;
  std::vector<bool> primary;
  for (size_t i = 0; i < protocol.items.size(); ++i) {
    StudyAnalysis::MixedItem m;
    m.item = protocol.items[i].key;
    const std::optional<MixedFit> fit = fitItem(study, all, i, covariate, m);
    if (!m.withPeriod)
      a.notes.push_back(m.item +
                        ": period and condition are confounded; the mixed model "
                        "leaves period out");
    if (!fit) a.notes.push_back(m.item + ": no mixed model (" + m.failure + ")");
    a.mixedItems.push_back(m);
    if (!fit) continue;
    for (size_t first = 0; first < protocol.conditions.size(); ++first)
      for (size_t second = first + 1; second < protocol.conditions.size(); ++second) {
        const auto& names = protocol.conditions;
        StudyAnalysis::MixedComparison c;
        c.item = m.item;
        c.primary = isPrimary(protocol.analysis, c.item, names[first].name, names[second].name);
        size_t x = first, y = second;  // the primary test as registered, the others in order
        if (c.primary && names[x].name != protocol.analysis.primaryFirst) std::swap(x, y);
        c.first = names[x].name;
        c.second = names[y].name;
        c.contrast = conditionDifference(*fit, x, y, c.first + " - " + c.second);
        a.mixedComparisons.push_back(c);
        p.push_back(c.contrast.p);
        primary.push_back(c.primary);
      }
  }
  const std::vector<double> adjusted = holmExploratory(p, primary);
  for (size_t k = 0; k < a.mixedComparisons.size(); ++k) a.mixedComparisons[k].holmP = adjusted[k];
}

// The metrics that vary over the games (a constant one says nothing).
std::vector<const MetricInfo*> varyingMetrics(const std::vector<Observation>& all) {
  std::vector<const MetricInfo*> metrics;
  for (const MetricInfo& info : allMetrics()) {
    const auto k = static_cast<size_t>(info.metric);
    bool varies = false;
    for (const Observation& o : all)
      varies = varies || o.game->record.metrics[k] != all.front().game->record.metrics[k];
    if (varies) metrics.push_back(&info);
  }
  return metrics;
}

// Which participant each observation belongs to.
std::vector<size_t> participantOf(const std::vector<Observation>& all) {
  std::vector<size_t> of;
  for (const Observation& o : all) of.push_back(o.participant);
  return of;
}

void addCorrelations(const StudySessions& study, const std::vector<Observation>& all, uint64_t seed,
                     StudyAnalysis& a) {
  Rng rng(seed);
  const std::vector<size_t> of = participantOf(all);
  const Participants participants{of, study.sessions.size()};
  for (const MetricInfo* info : varyingMetrics(all)) {
    std::vector<double> m;
    for (const Observation& o : all)
      m.push_back(o.game->record.metrics[static_cast<size_t>(info->metric)]);
    for (size_t i = 0; i < study.protocol.items.size(); ++i) {
      std::vector<double> answers;
      for (const Observation& o : all) answers.push_back(o.game->answers->values[i]);
      StudyAnalysis::Correlation c;
      c.metric = info->key;
      c.item = study.protocol.items[i].key;
      c.games = all.size();
      c.participants = participants.count;
      c.rho = spearman(m, answers);
      std::tie(c.low, c.high) =
          participantSpearmanInterval(m, answers, participants, 0.95, 1000, rng);
      a.correlations.push_back(c);
    }
  }
}

void addNoticed(const StudySessions& study, const std::vector<Observation>& all, StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  size_t item = protocol.items.size();
  for (size_t i = 0; i < protocol.items.size(); ++i)
    if (protocol.items[i].key == "manipulated") item = i;
  if (item == protocol.items.size()) {
    a.notes.push_back("no item 'manipulated': whether the manipulation was noticed is not shown");
    return;
  }
  a.manipulationItem = protocol.items[item].key;
  const std::vector<bool> people = protocol.people();
  const auto seat =
      static_cast<size_t>(std::find(people.begin(), people.end(), true) - people.begin());
  for (size_t c = 0; c < protocol.conditions.size(); ++c) {
    StudyAnalysis::Noticed n;
    n.condition = protocol.conditions[c].name;
    size_t above = 0;
    double believability = 0;
    ChanceBins pooled{};
    for (const Observation& o : all) {
      if (o.condition != c) continue;
      ++n.games;
      above += o.game->answers->values[item] > protocol.items[item].midpoint();
      believability += o.game->record.metrics[static_cast<size_t>(Metric::Believability)];
      for (size_t bin = 0; bin < pooled.size(); ++bin)
        pooled[bin] += o.game->record.chance[seat][bin];
    }
    if (n.games == 0) continue;
    n.rateAbove = static_cast<double>(above) / static_cast<double>(n.games);
    std::tie(n.rateLow, n.rateHigh) = wilsonInterval(above, n.games);
    n.believability = believability / static_cast<double>(n.games);
    n.decilesP = chanceUniformity(pooled).p;
    a.noticed.push_back(n);
  }
}

// Why the fit is or is not better than the constant model, in numbers.
std::string verdictOf(const ParticipantRidge& r, const std::string& item) {
  const std::string numbers =
      "nested CV RMSE " + analysisDecimals(r.nestedRmse, 3) + " against the constant's " +
      analysisDecimals(r.constantRmse, 3) + " (" + analysisDecimals(100 * r.relativeGain(), 1) +
      " % lower; the margin is " + analysisDecimals(100 * kFitMargin, 0) +
      " %), the constant's MSE minus the fit's 95 % participant-bootstrap interval [" +
      analysisDecimals(r.gainLow, 3) + ", " + analysisDecimals(r.gainHigh, 3) +
      "] (must lie above 0)";
  return r.beatsConstant
             ? "the fit predicts " + item +
                   " of held-out participants better than a "
                   "constant: " +
                   numbers
             : "the fit does not predict " + item +
                   " of held-out participants clearly better than a constant: " + numbers +
                   "; no fitted-batch.json is written";
}

void addFit(const StudySessions& study, const std::vector<Observation>& all, uint64_t seed,
            StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  size_t item = 0;
  for (size_t i = 0; i < protocol.items.size(); ++i)
    if (protocol.items[i].key == "enjoyment") item = i;
  a.fittedItem = protocol.items[item].key;
  std::vector<const MetricInfo*> metrics;
  for (const MetricInfo* info : varyingMetrics(all))
    if (info->scored) metrics.push_back(info);
  const std::string tooFew =
      study.sessions.size() < kFitMinParticipants
          ? std::to_string(study.sessions.size()) + " participants (a fit needs " +
                std::to_string(kFitMinParticipants) + ")"
      : all.size() < 10 ? std::to_string(all.size()) + " answered games (a fit needs 10)"
      : metrics.empty() ? std::string("no metric that varies")
                        : std::string();
  if (!tooFew.empty()) {
    a.fitVerdict = tooFew + ": no coefficients fitted";
    a.notes.push_back(a.fitVerdict);
    return;
  }
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (const Observation& o : all) {
    std::vector<double> row;
    for (const MetricInfo* info : metrics)
      row.push_back(o.game->record.metrics[static_cast<size_t>(info->metric)]);
    x.push_back(row);
    y.push_back(o.game->answers->values[item]);
  }
  const std::vector<double> lambdas = {0.01, 0.1, 1, 3, 10, 30, 100, 300, 1000};
  const std::vector<size_t> of = participantOf(all);
  a.ridge = participantRidge(x, y, {of, study.sessions.size()}, lambdas, seed);
  const std::vector<double> raw = a.ridge.fit.rawWeights();
  // F = sum c_k sign_k m_k (sign -1 where lower is better) rises with the predicted answer
  // sum w_k m_k when c_k = sign_k w_k: answer points per unit of the metric, not rescaled (a
  // common factor would change no choice of the E-players, but it would hide the shrinkage).
  for (size_t k = 0; k < metrics.size(); ++k) {
    a.fittedMetrics.push_back(metrics[k]->key);
    const double sign = metrics[k]->better == Better::Lower ? -1.0 : 1.0;
    if (raw[k] != 0) a.coefficients[metrics[k]->key] = sign * raw[k];
  }
  a.fitReliable = a.ridge.beatsConstant;
  a.fitVerdict = verdictOf(a.ridge, a.fittedItem);
  if (!a.fitReliable) a.notes.push_back(a.fitVerdict);
}

void addReliability(const StudySessions& study, uint64_t seed, StudyAnalysis& a) {
  const StudyProtocol& protocol = study.protocol;
  Rng rng(seed);
  for (const StudySubscale& s : protocol.subscales) {
    std::vector<std::vector<double>> rows;
    std::vector<size_t> cluster;
    for (size_t p = 0; p < study.sessions.size(); ++p)
      for (const SessionGame& g : study.sessions[p].games())
        if (g.answers) {
          std::vector<double> row;
          for (size_t i : s.items) row.push_back(protocol.items[i].scored(g.answers->values[i]));
          rows.push_back(row);
          cluster.push_back(p);
        }
    StudyAnalysis::Reliability r{s.key,
                                 s.instrument,
                                 s.items.size(),
                                 rows.size(),
                                 study.sessions.size(),
                                 cronbachAlpha(rows),
                                 NAN,
                                 NAN};
    if (!std::isnan(r.alpha))
      std::tie(r.low, r.high) = cronbachAlphaInterval(rows, cluster, 0.95, 2000, rng);
    a.reliability.push_back(r);
  }
}

}  // namespace

double cronbachAlpha(const std::vector<std::vector<double>>& rows) {
  const size_t n = rows.size(), k = n ? rows.front().size() : 0;
  if (n < 2 || k < 2) return NAN;
  const auto variance = [n](const std::vector<double>& v) {
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n);
    double squares = 0;
    for (double x : v) squares += (x - mean) * (x - mean);
    return squares / static_cast<double>(n - 1);
  };
  double itemVariances = 0;
  for (size_t i = 0; i < k; ++i) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[i]);
    itemVariances += variance(column);
  }
  std::vector<double> sums;
  for (const auto& row : rows) sums.push_back(std::accumulate(row.begin(), row.end(), 0.0));
  const double total = variance(sums);
  if (total <= 0) return NAN;
  const double kd = static_cast<double>(k);
  return kd / (kd - 1) * (1 - itemVariances / total);
}

std::pair<double, double> cronbachAlphaInterval(const std::vector<std::vector<double>>& rows,
                                                std::span<const size_t> cluster, double level,
                                                int replicates, Rng& rng) {
  std::map<size_t, std::vector<size_t>> byCluster;
  for (size_t r = 0; r < rows.size(); ++r) byCluster[cluster[r]].push_back(r);
  std::vector<const std::vector<size_t>*> clusters;
  for (const auto& entry : byCluster) clusters.push_back(&entry.second);
  if (clusters.size() < 2) return {NAN, NAN};
  std::vector<double> alphas;
  for (int b = 0; b < replicates; ++b) {
    std::vector<std::vector<double>> sample;
    for (size_t c = 0; c < clusters.size(); ++c)
      for (size_t r : *clusters[rng.below(static_cast<uint32_t>(clusters.size()))])
        sample.push_back(rows[r]);
    const double alpha = cronbachAlpha(sample);
    if (!std::isnan(alpha)) alphas.push_back(alpha);
  }
  if (alphas.size() < static_cast<size_t>(replicates) / 2) return {NAN, NAN};
  return percentileInterval(alphas, level);
}

StudyAnalysis analyzeStudy(const StudySessions& answered, uint64_t seed, bool full,
                           const StudyCovariate* covariate) {
  if (covariate && covariate->values.size() != answered.sessions.size())
    throw std::invalid_argument("a covariate needs one value per session");
  // Subscales are analysed as items (the answers alone are what the reliability needs).
  const std::optional<StudySessions> scored = withSubscales(answered);
  const StudySessions& study = scored ? *scored : answered;
  StudyAnalysis a;
  a.protocol = study.protocol.name;
  a.items = study.protocol.items;
  a.participants = study.sessions.size();
  a.flow = study.flow.text();
  a.plan = study.protocol.analysis;
  const std::vector<Observation> all = observations(study);
  a.games = all.size();
  if (all.empty()) {
    a.notes.push_back("no answered game yet");
    return a;
  }
  addMeans(study, all, a);
  if (const std::string why = nothingToCompare(study.protocol); !why.empty()) {
    a.notes.push_back(why);
  } else {
    if (covariate) {
      a.covariate = covariate->name;
      a.covariateLeftOut = static_cast<size_t>(
          std::count(covariate->values.begin(), covariate->values.end(), std::nullopt));
    }
    addMixedModels(study, all, covariate, a);
    addComparisons(study, all, a);
  }
  if (!full) return a;
  addCorrelations(study, all, splitmix64(seed), a);
  addNoticed(study, all, a);
  addFit(study, all, seed, a);
  addReliability(answered, splitmix64(seed ^ 0xa1fa), a);
  return a;
}

Json fittedBatch(const StudyProtocol& protocol, const Json& coefficients, int iterations,
                 const std::string& unreliable) {
  Json experiments = Json::array();
  const auto row = [&](size_t c, const std::string& name) {
    Json e = protocol.simulatedExperiment(c);
    e["name"] = protocol.name + "/" + name;
    e["comparison"] = protocol.name;
    e["iterations"] = iterations;
    if (!e.contains("coefficients"))
      e["coefficients"] = protocol.document.value("coefficients", Json());
    if (e["coefficients"].is_null()) e.erase("coefficients");
    experiments.push_back(e);
    return e;
  };
  for (size_t c = 0; c < protocol.conditions.size(); ++c) row(c, protocol.conditions[c].name);
  const auto steering = std::find_if(
      protocol.conditions.begin(), protocol.conditions.end(),
      [](const StudyCondition& c) { return c.environment.value("id", "") != "e-random"; });
  if (steering != protocol.conditions.end()) {
    row(static_cast<size_t>(steering - protocol.conditions.begin()), "fitted");
    experiments.back()["coefficients"] = coefficients;
  }
  Json batch = {{"format", kBatchFormat},
                {"description", "The conditions of study " + protocol.name +
                                    " with an AI in the participant's seat, and the first steering "
                                    "condition with the coefficients fitted to the participants' "
                                    "answers (ddalab study analyze)."},
                {"seed", protocol.seed},
                {"experiments", experiments}};
  if (!unreliable.empty()) batch["unreliable_fit"] = unreliable;
  return batch;
}
}  // namespace ddalab
