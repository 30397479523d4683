#include "studies/export.h"

#include <cmath>

#include "core/metrics.h"
#include "experiments/sha256.h"
#include "results/csv.h"
#include "results/file_io.h"

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
  const StudyProtocol& p = s.protocol();
  if (p.order != OrderScheme::LatinSquare) return "NA";
  const size_t rows = balancedLatinSquare(p.conditions.size()).size();
  return std::to_string(static_cast<size_t>(s.ordinal()) % rows + 1);
}

std::string header() {
  std::string h = "participant,order_row,period,condition,condition_number,game,game_seed";
  for (const MetricInfo& info : allMetrics()) (h += ',') += std::string(info.key);
  return h + ",item,answer\n";
}

// The columns every key of one game shares, up to its metrics.
std::string gameFields(const StudySession& s, const SessionGame& g, const std::string& id,
                       const std::string& row) {
  const StudyProtocol& p = s.protocol();
  std::string f = csvField(id) + "," + row + "," + std::to_string(studyPeriod(p, g.plan)) + "," +
                  csvField(p.conditions[g.plan.condition].name) + "," +
                  std::to_string(g.plan.condition + 1) + "," + std::to_string(g.plan.index + 1) +
                  "," + std::to_string(g.plan.seed);
  for (const MetricInfo& info : allMetrics())
    (f += ',') += numberOrNa(g.record.metrics[static_cast<size_t>(info.metric)]);
  return f;
}

}  // namespace

std::string tidyExportCsv(const StudySessions& answered, bool hashIds) {
  const std::optional<StudySessions> scored = withSubscales(answered);
  const StudySessions& study = scored ? *scored : answered;
  std::string csv = header();
  for (const StudySession& s : study.sessions) {
    const std::string id =
        hashIds ? hashedParticipantId(study.protocol.name, s.participant()) : s.participant();
    const std::string row = orderRow(s);
    for (const SessionGame& g : s.games()) {
      if (!g.answers) continue;
      const std::string fields = gameFields(s, g, id, row);
      for (size_t i = 0; i < study.protocol.items.size(); ++i)
        csv += fields + "," + csvField(study.protocol.items[i].key) + "," +
               numberOrNa(g.answers->values[i]) + "\n";
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
