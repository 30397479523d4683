#include "studies/power.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/params.h"
#include "core/rng.h"
#include "results/statistics.h"
#include "studies/analysis.h"
#include "studies/mixed_model.h"

namespace ddalab {

namespace {

// A tested contrast: condition indices, first minus second.
struct Contrast {
  size_t first = 0, second = 0;
};

// The item a power analysis draws: its key and the scale its answers take (a subscale's: that of
// its first item, the scale its mean lives on).
struct TestedItem {
  std::string key;
  StudyItem scale;
};

std::optional<StudyItem> itemNamed(const StudyProtocol& protocol, const std::string& key) {
  for (const StudyItem& item : protocol.items)
    if (item.key == key) return item;
  for (const StudySubscale& s : protocol.subscales)
    if (s.key == key && !s.items.empty()) return protocol.items[s.items.front()];
  return std::nullopt;
}

TestedItem testedItem(const StudyProtocol& protocol, const PowerModel& model) {
  std::string key = protocol.analysis.primaryItem;
  if (key.empty() && !model.effects.empty()) key = model.effects.front().item;
  if (key.empty() && !protocol.items.empty()) key = protocol.items.front().key;
  const std::optional<StudyItem> item = itemNamed(protocol, key);
  if (!item) throw InputError("--effect", "item '" + key + "' is not in the protocol");
  return {key, *item};
}

size_t conditionIndex(const StudyProtocol& protocol, const std::string& name) {
  for (size_t c = 0; c < protocol.conditions.size(); ++c)
    if (protocol.conditions[c].name == name) return c;
  throw InputError("analysis.primary.contrast", "unknown condition '" + name + "'");
}

// The pre-registered contrast, or each condition against the first (as the analysis reports).
std::vector<Contrast> testedContrasts(const StudyProtocol& protocol, bool* preregistered) {
  const StudyAnalysisPlan& plan = protocol.analysis;
  *preregistered = !plan.primaryItem.empty();
  if (*preregistered)
    return {{conditionIndex(protocol, plan.primaryFirst),
             conditionIndex(protocol, plan.primarySecond)}};
  std::vector<Contrast> contrasts;
  for (size_t c = 1; c < protocol.conditions.size(); ++c) contrasts.push_back({c, 0});
  return contrasts;
}

// The planted points of each condition on `item`.
std::vector<double> plantedShifts(const StudyProtocol& protocol, const PowerModel& model,
                                  const std::string& item) {
  std::vector<double> shift(protocol.conditions.size(), 0);
  for (const PlantedEffect& e : model.effects)
    if (e.item == item) shift[conditionIndex(protocol, e.condition)] += e.points;
  return shift;
}

// Every participant's games: the design the drawn answers fill, periods as the analysis has them.
MixedData designOf(const StudyProtocol& protocol, int participants) {
  MixedData d;
  for (const StudyCondition& c : protocol.conditions) d.conditions.push_back(c.name);
  for (size_t k = 1; k <= protocol.conditions.size(); ++k) d.periods.push_back(std::to_string(k));
  for (int p = 0; p < participants; ++p) {
    d.participants.push_back(std::to_string(p + 1));  // a name only: "1", "2", ...
    for (const PlannedGame& g : planGames(protocol, p))
      d.observations.push_back(
          {static_cast<size_t>(p), g.condition, studyPeriod(protocol, g) - 1, 0});
  }
  return d;
}

// The analysis leaves period out when it is confounded with condition (studies/analysis.cpp).
bool periodConfounded(MixedData design) {
  for (MixedObservation& o : design.observations)
    o.answer = static_cast<double>(o.participant % 3 + o.condition + 2 * o.period);
  std::string why;
  return !fitMixedModel(design, &why) && why.find("confounded") != std::string::npos;
}

struct Draw {
  MixedData design;
  bool withPeriod = true;
  double participantSd = 0, residualSd = 0, periodStep = 0;
  StudyItem scale;
  std::vector<double> shift;  // planted points per condition
};

// One study's answers, drawn from the model with `rng`.
void drawAnswers(Draw& draw, Rng& rng) {
  std::vector<double> intercept(draw.design.participants.size());
  for (double& u : intercept) u = draw.participantSd * standardNormal(rng);
  const double low = draw.scale.min(), high = draw.scale.max();
  for (MixedObservation& o : draw.design.observations) {
    const double latent =
        draw.scale.midpoint() + intercept[o.participant] + draw.shift[o.condition] +
        draw.periodStep * static_cast<double>(o.period) + draw.residualSd * standardNormal(rng);
    o.answer = std::clamp(std::round(latent), low, high);
  }
}

MixedData fitted(const Draw& draw) {
  if (draw.withPeriod) return draw.design;
  MixedData d = draw.design;
  d.periods = {"1"};
  for (MixedObservation& o : d.observations) o.period = 0;
  return d;
}

// Whether each contrast is rejected in one drawn study (Holm over them unless preregistered).
std::vector<bool> rejections(const Draw& draw, const std::vector<Contrast>& contrasts,
                             bool preregistered, double alpha) {
  const std::optional<MixedFit> fit = fitMixedModel(fitted(draw));
  if (!fit) return std::vector<bool>(contrasts.size(), false);
  std::vector<double> p;
  for (const Contrast& c : contrasts)
    p.push_back(conditionDifference(*fit, c.first, c.second, "").p);
  if (!preregistered) p = holmAdjust(p);
  std::vector<bool> rejected;
  for (double x : p) rejected.push_back(x < alpha);
  return rejected;
}

}  // namespace

double defaultParticipantSd(const StudyItem& item) {
  return 0.15 * (item.max() - item.min());
}
double defaultResidualSd(const StudyItem& item) {
  return 0.15 * (item.max() - item.min());
}

void checkPowerModel(const PowerModel& model) {
  if (model.participants < 2)
    throw InputError("--participants", "expected at least 2 participants for a power analysis");
  const auto sd = [](double x, const char* option) {
    if (!std::isnan(x) && (!std::isfinite(x) || x < 0))
      throw InputError(option, "expected a finite standard deviation >= 0 (scale points)");
  };
  sd(model.participantSd, "--participant-sd");
  sd(model.residualSd, "--residual-sd");
  if (!std::isfinite(model.periodStep))
    throw InputError("--period-effect", "expected a finite number of scale points");
}

void checkSomethingToCompare(const StudyProtocol& protocol) {
  const std::string why = nothingToCompare(protocol);
  if (!why.empty()) throw InputError("--power", why + "; expected 2 or more conditions");
}

ModelPower modelPower(const StudyProtocol& protocol, const PowerModel& model, int repetitions) {
  checkSomethingToCompare(protocol);
  checkPowerModel(model);
  const TestedItem item = testedItem(protocol, model);
  ModelPower power;
  power.item = item.key;
  power.alpha = protocol.analysis.alpha;
  power.participantSd =
      std::isnan(model.participantSd) ? defaultParticipantSd(item.scale) : model.participantSd;
  power.residualSd =
      std::isnan(model.residualSd) ? defaultResidualSd(item.scale) : model.residualSd;
  const std::vector<Contrast> contrasts = testedContrasts(protocol, &power.preregistered);
  Draw draw{designOf(protocol, model.participants),
            true,
            power.participantSd,
            power.residualSd,
            model.periodStep,
            item.scale,
            plantedShifts(protocol, model, item.key)};
  draw.withPeriod = !periodConfounded(draw.design);
  std::vector<size_t> rejected(contrasts.size(), 0);
  Rng rng(splitmix64(model.seed ^ 0x90e5ull));
  for (int r = 0; r < repetitions; ++r) {
    drawAnswers(draw, rng);
    const std::vector<bool> once = rejections(draw, contrasts, power.preregistered, power.alpha);
    for (size_t k = 0; k < once.size(); ++k) rejected[k] += once[k];
  }
  for (size_t k = 0; k < contrasts.size(); ++k) {
    ModelPowerRow row;
    row.first = protocol.conditions[contrasts[k].first].name;
    row.second = protocol.conditions[contrasts[k].second].name;
    row.planted = draw.shift[contrasts[k].first] - draw.shift[contrasts[k].second];
    row.rejected = rejected[k];
    row.repetitions = static_cast<size_t>(repetitions);
    row.rate = static_cast<double>(row.rejected) / repetitions;
    std::tie(row.low, row.high) = wilsonInterval(row.rejected, row.repetitions);
    power.rows.push_back(row);
  }
  return power;
}

DetectableEffect minimumDetectableEffect(const StudyProtocol& protocol, const PowerModel& model,
                                         int repetitions, double target, double precision) {
  checkSomethingToCompare(protocol);
  const TestedItem item = testedItem(protocol, model);
  bool preregistered = false;
  const Contrast first = testedContrasts(protocol, &preregistered).front();
  // The effect alone on the tested item (other items' effects are not drawn anyway).
  const auto at = [&](double effect) {
    PowerModel planted = model;
    planted.effects = {{item.key, protocol.conditions[first.first].name, effect}};
    return modelPower(protocol, planted, repetitions).rows.front();
  };
  DetectableEffect mde;
  double low = 0, high = item.scale.max() - item.scale.min();
  ModelPowerRow atHigh = at(high);
  if (atHigh.rate < target) {
    mde.atEffect = atHigh;
    mde.precision = precision;
    return mde;
  }
  while (high - low > precision) {
    const double middle = (low + high) / 2;
    const ModelPowerRow row = at(middle);
    if (row.rate >= target) {
      high = middle;
      atHigh = row;
    } else {
      low = middle;
    }
  }
  mde.effect = high;
  mde.precision = high - low;
  mde.atEffect = atHigh;
  return mde;
}

int participantsForWilcoxon(const StudyProtocol& protocol) {
  const size_t k = protocol.conditions.size();
  const size_t tests = (protocol.items.size() + protocol.subscales.size()) * k * (k - 1) / 2;
  const bool preregistered = !protocol.analysis.primaryItem.empty();
  // Holm multiplies the smallest exploratory p by their number; the primary test stands alone.
  const double multiplier = preregistered ? 1.0 : static_cast<double>(std::max<size_t>(tests, 1));
  int n = 1;
  while (2 * multiplier / std::ldexp(1.0, n) > protocol.analysis.alpha) ++n;
  return n;
}

std::string designWarning(const StudyProtocol& protocol, size_t participants) {
  if (!nothingToCompare(protocol).empty()) return "";
  const int needed = participantsForWilcoxon(protocol);
  if (participants >= static_cast<size_t>(needed)) return "";
  const bool preregistered = !protocol.analysis.primaryItem.empty();
  return "WARNING: " + std::to_string(participants) +
         " participants cannot make the Wilcoxon check significant (smallest exact p 2/2^" +
         std::to_string(participants) +
         (preregistered ? " for the primary test" : ", Holm over the exploratory tests") +
         "): at least " + std::to_string(needed) + " participants are needed";
}

// Studies simulated for the design note of validate and analyze (a quarter of a second for 12 people).
constexpr int kDesignNoteStudies = 100;

std::string mixedModelDesignNote(const StudyProtocol& protocol, size_t participants) {
  if (const std::string why = nothingToCompare(protocol); !why.empty()) return "WARNING: " + why;
  PowerModel model;
  model.participants = static_cast<int>(std::max<size_t>(participants, 2));
  const DetectableEffect mde = minimumDetectableEffect(protocol, model, kDesignNoteStudies);
  const ModelPower& reference = modelPower(protocol, model, 1);
  const std::string what =
      reference.rows.empty() ? std::string("the first contrast")
                             : reference.rows.front().first + " - " + reference.rows.front().second;
  const std::string head = "the mixed model with " + std::to_string(participants) +
                           " participants (default variances, " +
                           std::to_string(kDesignNoteStudies) + " simulated studies)";
  if (participants < 2 || std::isnan(mde.effect))
    return "WARNING: " + head + " cannot detect even the whole scale's range on " + reference.item +
           " (" + what + ") with 80 % power";
  char effect[32];
  std::snprintf(effect, sizeof effect, "%.2f", mde.effect);
  const StudyItem scale = testedItem(protocol, model).scale;
  const double range = static_cast<double>(scale.max() - scale.min());
  const std::string line = head + " detects " + effect + " points on " + reference.item + " (" +
                           what + ") with 80 % power";
  // A sixth of the scale's range (1 point on 1-7) is more than a DDA study should expect of its
  // conditions (docs/user-study.md, "Power").
  return mde.effect > range / 6 ? "WARNING: " + line + ": more participants are needed"
                                : "  " + line;
}

}  // namespace ddalab
