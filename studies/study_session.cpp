#include "studies/study_session.h"

#include <algorithm>
#include <stdexcept>

#include "core/sha256.h"
#include "core/file_io.h"
#include "studies/allocation.h"

namespace ddalab {

namespace fs = std::filesystem;

StudySession StudySession::open(const fs::path& folder, const StudyProtocol& protocol,
                                const std::string& participant, IdOrigin origin) {
  checkParticipantId(participant, "participant");
  checkTextsFilledIn(protocol);
  const fs::path file = folder / "session.json";
  const fs::path study = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  if (fs::exists(file)) {
    StudySession existing = read(folder);
    if (existing.checksum_ != sha256Hex(protocol.document.dump()))
      throw InputError(file.string(), "holds a session of another protocol (" +
                                          existing.protocol().name + "); expected one of " +
                                          protocol.name);
    if (existing.participant_ != participant)
      throw InputError(file.string(), "holds participant '" + existing.participant_ +
                                          "'; expected '" + participant + "'");
    // A crash between dropout.json and the log: the log learns it now.
    if (!existing.dropoutReason_.empty())
      recordDropoutInLog(study, participant, existing.dropoutReason_);
    return existing;
  }
  const Allocation allocation = allocateParticipant(study, protocol, participant);
  return create(folder, std::make_shared<const StudyProtocol>(protocol), participant,
                allocation.ordinal, allocation.row, origin);
}

namespace {

const char* originName(StudySession::IdOrigin origin) {
  return origin == StudySession::IdOrigin::Generated ? "generated" : "given";
}

}  // namespace

StudySession StudySession::create(const fs::path& folder,
                                  std::shared_ptr<const StudyProtocol> protocol,
                                  const std::string& participant, int ordinal,
                                  std::optional<int> row, IdOrigin origin, bool simulated) {
  checkParticipantId(participant, "participant");
  const fs::path file = folder / "session.json";
  if (fs::exists(file))
    throw InputError(file.string(), "holds a session already; expected a folder without one");
  fs::create_directories(folder);
  StudySession s = inMemory(std::move(protocol), participant, ordinal);
  s.folder_ = folder;
  s.idOrigin_ = origin;
  s.simulated_ = simulated;
  if (row) {
    s.row_ = *row;
    s.plan_ = planGames(*s.protocol_, ordinal, *row);
  }
  Json session = {{"format", kSessionFormat},
                  {"participant", participant},
                  {"id_origin", originName(origin)},
                  {"ordinal", ordinal},
                  {"row", s.row_},
                  {"protocol_sha256", s.checksum_},
                  {"protocol", s.protocol_->document},
                  {"plan", sessionPlanJson(*s.protocol_, s.plan_)}};
  if (simulated) session["simulated"] = true;
  writeFileAtomically(file, session.dump(2) + "\n");
  syncFolder(folder);
  s.writeCsvs();
  return s;
}

StudySession StudySession::read(const fs::path& folder) {
  const fs::path file = folder / "session.json";
  const Json session = readSessionJson(file);
  const std::string source = file.string();
  if (!session.is_object() || session.value("format", Json()) != Json(kSessionFormat))
    throw InputError(source, std::string("not a session folder: expected \"format\": \"") +
                                 kSessionFormat + "\"");
  JsonFields fields(session, source + ": $",
                    {"format", "participant", "id_origin", "ordinal", "row", "protocol_sha256",
                     "protocol", "plan", "simulated"});
  StudySession s;
  s.folder_ = folder;
  s.protocol_ = std::make_shared<const StudyProtocol>(
      parseStudyProtocol(fields.get("protocol"), source + " ($.protocol)"));
  s.checksum_ = fields.string("protocol_sha256");
  if (s.checksum_ != sha256Hex(s.protocol_->document.dump()))
    throw InputError(fields.at("protocol_sha256"),
                     "does not match the protocol the file records: was it edited?");
  s.participant_ = fields.string("participant");
  checkParticipantId(s.participant_, fields.at("participant"));
  const std::string origin = fields.string("id_origin", "given");
  if (origin != "given" && origin != "generated")
    throw InputError(fields.at("id_origin"),
                     "expected \"given\" or \"generated\", got \"" + textExcerpt(origin) + "\"");
  s.idOrigin_ = origin == "generated" ? IdOrigin::Generated : IdOrigin::Given;
  if (const Json* simulated = fields.find("simulated")) {
    if (!simulated->is_boolean())
      throw InputError(fields.at("simulated"),
                       "expected true or false, got " + jsonExcerpt(*simulated));
    s.simulated_ = simulated->get<bool>();
  }
  s.ordinal_ = static_cast<int>(fields.integer("ordinal", 0, kMaxSessionOrdinal));
  s.row_ = readRecordedRow(fields, *s.protocol_, s.ordinal_);
  s.plan_ = planGames(*s.protocol_, s.ordinal_, s.row_);
  checkRecordedPlan(fields.get("plan"), fields.at("plan"), *s.protocol_, s.plan_, s.ordinal_,
                    s.row_);
  s.load();
  return s;
}

StudySession StudySession::inMemory(std::shared_ptr<const StudyProtocol> protocol,
                                    const std::string& participant, int ordinal) {
  StudySession s;
  s.protocol_ = std::move(protocol);
  s.checksum_ = sha256Hex(s.protocol_->document.dump());
  s.participant_ = participant;
  s.ordinal_ = ordinal;
  s.row_ = cyclicRow(*s.protocol_, ordinal);
  s.plan_ = planGames(*s.protocol_, ordinal, s.row_);
  s.simulated_ = true;
  return s;
}

StudySession StudySession::withDerivedAnswers(
    std::shared_ptr<const StudyProtocol> protocol,
    const std::function<std::vector<double>(const std::vector<double>&)>& derive) const {
  StudySession copy = *this;
  copy.folder_.clear();  // nothing of it is written
  copy.protocol_ = std::move(protocol);
  for (SessionGame& g : copy.games_)
    if (g.answers) {
      const std::vector<double> more = derive(g.answers->values);
      g.answers->values.insert(g.answers->values.end(), more.begin(), more.end());
    }
  return copy;
}

void StudySession::load() {
  checkSessionFiles(folder_, plan_.size());
  games_.clear();
  for (const PlannedGame& planned : plan_) {
    if (!fs::exists(sessionGameFile(folder_, planned.index))) break;
    games_.push_back(readSessionGame(folder_, *protocol_, planned));
  }
  const std::string base = folder_.string() + "/";
  if (const auto consent = readPageRecord(folder_, "consent.json")) {
    JsonFields fields(*consent, base + "consent.json: $", {"agreed", "timing"});
    const Json& agreed = fields.get("agreed");
    if (!agreed.is_boolean())
      throw InputError(fields.at("agreed"), "expected true or false, got " + jsonExcerpt(agreed));
    consent_ = recordTiming(fields);
    declined_ = !agreed.get<bool>();
  }
  if (const auto demographics = readPageRecord(folder_, "demographics.json"))
    demographics_ = readDemographics(*demographics, base + "demographics.json", protocol_->pages);
  for (const auto& [name, timing] :
       {std::pair{"instructions.json", &instructions_}, std::pair{"debrief.json", &debrief_}})
    if (const auto record = readPageRecord(folder_, name)) {
      JsonFields fields(*record, base + name + ": $", {"timing"});
      *timing = recordTiming(fields);
    }
  if (const auto dropout = readPageRecord(folder_, "dropout.json")) {
    JsonFields fields(*dropout, base + "dropout.json: $", {"reason", "at"});
    dropoutReason_ = fields.string("reason");
  }
  if (declined_ && dropoutReason_.empty()) dropoutReason_ = kDeclinedConsent;
}

SessionStep StudySession::step() const {
  if (declined_) return SessionStep::Declined;
  if (!dropoutReason_.empty()) return SessionStep::DroppedOut;
  // A simulated participant reads nothing: its pages are empty.
  const StudyPages pages = simulated_ ? StudyPages{} : protocol_->pages;
  if (!pages.consent.empty() && !consent_) return SessionStep::Consent;
  if (!pages.demographics.empty() && !demographics_) return SessionStep::Demographics;
  if (!pages.instructions.empty() && !instructions_) return SessionStep::Instructions;
  if (next()) return needsAnswersOnly() ? SessionStep::Questionnaire : SessionStep::Game;
  if (!pages.debrief.empty() && !debrief_) return SessionStep::Debrief;
  return SessionStep::Complete;
}

bool StudySession::consented() const {
  return simulated_ || protocol_->pages.consent.empty() || (consent_ && !declined_);
}

std::string StudySession::statusText() const {
  switch (step()) {
    case SessionStep::Complete:
      return "complete";
    case SessionStep::Declined:
      return "consent declined";
    case SessionStep::DroppedOut:
      return "dropped out: " + dropoutReason_;
    default:
      return std::to_string(answered()) + " of " + std::to_string(plan_.size()) + " answered";
  }
}

void StudySession::expectStep(SessionStep expected, const char* what) const {
  if (step() != expected)
    throw std::logic_error(std::string("StudySession::") + what + ": not the session's step now");
}

void StudySession::writeRecord(const char* name, const Json& record) const {
  if (folder_.empty()) return;
  writeFileAtomically(folder_ / name, record.dump(2) + "\n");
  syncFolder(folder_);
}

void StudySession::recordConsent(bool agreed, const ResponseTiming& timing) {
  expectStep(SessionStep::Consent, "recordConsent");
  writeRecord("consent.json", {{"agreed", agreed}, {"timing", timingJson(timing)}});
  consent_ = timing;
  if (!agreed) {
    declined_ = true;
    markDropout(kDeclinedConsent);
  }
}

void StudySession::saveDemographics(const DemographicAnswers& answers) {
  expectStep(SessionStep::Demographics, "saveDemographics");
  const std::vector<DemographicItem>& items = protocol_->pages.demographics;
  if (answers.values.size() != items.size())
    throw InputError("demographics",
                     "expected " + std::to_string(items.size()) + " answers, one per question");
  Json values = Json::object();
  for (size_t i = 0; i < items.size(); ++i) {
    if (std::find(items[i].options.begin(), items[i].options.end(), answers.values[i]) ==
        items[i].options.end())
      throw InputError(
          "demographics." + items[i].key,
          "expected one of the question's options, got '" + textExcerpt(answers.values[i]) + "'");
    values[items[i].key] = answers.values[i];
  }
  writeRecord("demographics.json", {{"answers", values}, {"timing", timingJson(answers.timing)}});
  demographics_ = answers;
}

void StudySession::recordInstructionsRead(const ResponseTiming& timing) {
  expectStep(SessionStep::Instructions, "recordInstructionsRead");
  writeRecord("instructions.json", {{"timing", timingJson(timing)}});
  instructions_ = timing;
}

void StudySession::recordDebriefRead(const ResponseTiming& timing) {
  expectStep(SessionStep::Debrief, "recordDebriefRead");
  writeRecord("debrief.json", {{"timing", timingJson(timing)}});
  debrief_ = timing;
}

void StudySession::recordDropout(const std::string& reason) {
  if (sessionEnded(step())) return;
  markDropout(reason);
}

void StudySession::markDropout(const std::string& reason) {
  if (reason.empty() || reason.size() > 200)
    throw InputError("reason", "expected a reason of 1 to 200 characters");
  writeRecord("dropout.json",
              {{"reason", reason}, {"at", utcTimestamp(std::chrono::system_clock::now())}});
  dropoutReason_ = reason;
  if (!folder_.empty())
    recordDropoutInLog(folder_.parent_path().empty() ? fs::path(".") : folder_.parent_path(),
                       participant_, reason);
}

std::optional<PlannedGame> StudySession::next() const {
  for (const SessionGame& g : games_)
    if (!g.answers) return g.plan;
  if (games_.size() < plan_.size()) return plan_[games_.size()];
  return std::nullopt;
}

bool StudySession::needsAnswersOnly() const {
  return std::any_of(games_.begin(), games_.end(), [](const SessionGame& g) { return !g.answers; });
}

size_t StudySession::answered() const {
  return static_cast<size_t>(std::count_if(
      games_.begin(), games_.end(), [](const SessionGame& g) { return g.answers.has_value(); }));
}

void StudySession::saveGame(const PlannedGame& game, const GameRecord& record, const Json& trace,
                            std::span<const DecisionTiming> decisions) {
  const PlayedStudyGame played[] = {
      {game, record, trace, std::vector<DecisionTiming>(decisions.begin(), decisions.end())}};
  saveGames(played);
}

void StudySession::saveGames(std::span<const PlayedStudyGame> games) {
  for (size_t k = 0; k < games.size(); ++k)
    if (games[k].plan.index != static_cast<int>(games_.size() + k))
      throw std::logic_error("StudySession::saveGames: games are kept in the plan's order");
  if (!dropoutReason_.empty())
    throw std::logic_error("StudySession::saveGames: the participant has left the study");
  if (!folder_.empty()) writeGameFiles(folder_, *protocol_, games);  // a failed write keeps nothing
  for (const PlayedStudyGame& g : games)
    games_.push_back({g.plan, g.record, std::nullopt, g.decisions});
  if (!folder_.empty()) writeCsvs();
}

void StudySession::saveAnswers(int index, const StudyAnswers& answers) {
  saveAnswers(index, std::span(&answers, 1));
}

void StudySession::saveAnswers(int first, std::span<const StudyAnswers> answers) {
  if (first < 0 || first + answers.size() > games_.size())
    throw std::logic_error("StudySession::saveAnswers: the game has not been played");
  if (!dropoutReason_.empty())
    throw std::logic_error("StudySession::saveAnswers: the participant has left the study");
  std::vector<Json> files;  // every answer checked before any file is written
  for (size_t k = 0; k < answers.size(); ++k)
    files.push_back(answersFileJson(first + static_cast<int>(k), answers[k], protocol_->items));
  if (!folder_.empty()) {
    for (const Json& j : files)
      writeFileAtomically(sessionAnswersFile(folder_, j["index"].get<int>()), j.dump(2) + "\n");
    syncFolder(folder_);
  }
  for (size_t k = 0; k < answers.size(); ++k)
    games_[static_cast<size_t>(first) + k].answers = answers[k];
  if (!folder_.empty()) writeCsvs();
}

void StudySession::writeCsvs() const {
  writeSessionCsvs(folder_, *protocol_, games_);
}

}  // namespace ddalab
