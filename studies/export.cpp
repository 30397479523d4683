#include "studies/export.h"

#include <algorithm>
#include <cmath>

#include "core/metrics.h"
#include "core/sha256.h"
#include "results/csv.h"
#include "core/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

std::string hashedParticipantId(const std::string& protocol, const std::string& participant) {
  std::string bytes = protocol;
  bytes += '\0';  // "ab" + "c" and "a" + "bc" stay apart
  bytes += participant;
  return sha256Hex(bytes).substr(0, 16);
}

namespace {

std::string numberOrNa(double v) {
  return std::isfinite(v) ? csvNumber(v) : "NA";
}

// The session's row of the balanced Latin square, 1, 2, ... (as planGames picks it); NA for a
// randomly ordered protocol, whose orders are shuffles, not rows.
std::string orderRow(const StudySession& s) {
  return s.row() < 0 ? "NA" : std::to_string(s.row() + 1);
}

std::string header(const StudyProtocol& protocol) {
  std::string h;
  const auto add = [&h](const std::string& column) { (h += h.empty() ? "" : ",") += column; };
  for (const char* column : kExportParticipantColumns) add(column);
  for (const DemographicItem& item : protocol.pages.demographics) add(item.key);
  for (const char* column : kExportGameColumns) add(column);
  for (const MetricInfo& info : allMetrics()) add(info.key);
  for (const char* column : kExportAnswerColumns) add(column);
  return h + "\n";
}

// The participant's columns: id, order row, status and demographics (NA where not given).
std::string participantFields(const StudySession& s, const std::string& id) {
  std::string f = csvField(id) + "," + orderRow(s) + "," + csvField(s.statusText());
  const size_t questions = s.protocol().pages.demographics.size();
  for (size_t k = 0; k < questions; ++k)
    (f += ',') += s.demographics() ? csvField(s.demographics()->values[k]) : "NA";
  return f;
}

// The person's decisions in game `g`: how many, and the median of their response times.
std::string decisionFields(const SessionGame& g) {
  if (g.decisions.empty()) return "0,NA";
  std::vector<int64_t> ms;
  for (const DecisionTiming& d : g.decisions) ms.push_back(d.timing.responseMs);
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size();
  const double median =
      n % 2 ? static_cast<double>(ms[n / 2])
            : (static_cast<double>(ms[n / 2 - 1]) + static_cast<double>(ms[n / 2])) / 2;
  return std::to_string(n) + "," + csvNumber(median);
}

// The timing columns of key `k`'s answer (NA for a subscale's item_ms and untimed answers).
std::string answerTimingFields(const StudyAnswers& a, size_t k) {
  if (!a.timing) return "NA,NA,NA,NA";
  return (k < a.itemMs.size() ? std::to_string(a.itemMs[k]) : std::string("NA")) + "," +
         a.timing->shownAt + "," + a.timing->answeredAt + "," +
         std::to_string(a.timing->responseMs);
}

// The columns every key of one game shares, up to its metrics.
std::string gameFields(const StudySession& s, const SessionGame& g,
                       const std::string& participant) {
  const StudyProtocol& p = s.protocol();
  std::string f = participant + "," + std::to_string(studyPeriod(p, g.plan)) + "," +
                  csvField(p.conditions[g.plan.condition].name) + "," +
                  std::to_string(g.plan.condition + 1) + "," + std::to_string(g.plan.index + 1) +
                  "," + std::to_string(g.plan.seed) + "," + decisionFields(g);
  for (const MetricInfo& info : allMetrics())
    (f += ',') += numberOrNa(g.record.metrics[static_cast<size_t>(info.metric)]);
  return f;
}

}  // namespace

std::string tidyExportCsv(const StudySessions& answered, bool hashIds) {
  const std::optional<StudySessions> scored = withSubscales(answered);
  const StudySessions& study = scored ? *scored : answered;
  std::string csv = header(study.protocol);
  for (const StudySession& s : study.sessions) {
    // A given id (a platform's) is a person's: it leaves the study folder only hashed.
    const bool hash = hashIds || s.idOrigin() == StudySession::IdOrigin::Given;
    const std::string id =
        hash ? hashedParticipantId(study.protocol.name, s.participant()) : s.participant();
    const std::string participant = participantFields(s, id);
    for (const SessionGame& g : s.games()) {
      if (!g.answers) continue;
      const std::string fields = gameFields(s, g, participant);
      for (size_t i = 0; i < study.protocol.items.size(); ++i)
        csv += fields + "," + csvField(study.protocol.items[i].key) + "," +
               numberOrNa(g.answers->values[i]) + "," + answerTimingFields(*g.answers, i) + "\n";
    }
  }
  return csv;
}

void checkExportTarget(const fs::path& out, std::span<const fs::path> inputs,
                       const StudySessions& study, const std::string& option) {
  const std::string name = option + " " + out.string();
  try {
    checkReplaceable(out);
  } catch (const InputError& e) {
    throw InputError(name, e.message());
  }
  // A file inside a session folder would be read as part of it by the next analysis.
  const fs::path folder = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  if (const auto input = studyFolderHolding(folder, inputs, study))
    throw InputError(name, "is in " + input->string() +
                               ", a folder the export reads; expected a file outside the study's "
                               "folders");
}

}  // namespace ddalab
