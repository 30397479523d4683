#pragma once
// What a participant's session folder holds (docs/user-study.md), each file written the moment
// it exists so that a session survives a crash and resumes at the next game: session.json
// (protocol, participant, allocation, plan), consent.json, demographics.json and
// instructions.json (when the protocol has them, written when answered), game-NN.json (the
// record, detailed trace and the person's decision times of game NN, written when it ends),
// answers-NN.json (written when the questionnaire is submitted), debrief.json, dropout.json (a
// participant who left), plus games.csv and answers.csv rewritten after each game and
// questionnaire. This header reads and writes those files, each checked against the protocol as
// it is read; StudySession (study_session.h) decides when.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/match.h"
#include "core/json_input.h"
#include "studies/plan.h"
#include "studies/timing.h"

namespace ddalab {

inline constexpr const char* kSessionFormat = "ddalab-session/1";
// The dropout reason of a participant who declined consent.
inline constexpr const char* kDeclinedConsent = "declined consent";

// A participant's answers to the questionnaire after one game.
struct StudyAnswers {
  std::vector<double> values;  // one per item, in the protocol's order
  std::string comment;
  // A person's answers: when the questionnaire was shown and submitted, and per item the
  // milliseconds from its showing to the item's last change (none for a simulated participant).
  std::optional<ResponseTiming> timing = std::nullopt;
  std::vector<int64_t> itemMs = {};  // one per item when timed
};

// The demographics a participant gave: one of its options per item, in the protocol's order.
struct DemographicAnswers {
  std::vector<std::string> values;
  ResponseTiming timing;
};

// One game of a session as the folder keeps it (its detailed trace stays in game-NN.json: a
// session in memory holds no traces, however many games it has).
struct SessionGame {
  PlannedGame plan;
  GameRecord record;
  std::optional<StudyAnswers> answers;
  std::vector<DecisionTiming> decisions = {};  // the person's, in order (none when simulated)
};

// A game just played, to be kept by its session.
struct PlayedStudyGame {
  PlannedGame plan;
  GameRecord record;
  Json trace;  // the detailed trace line (docs/trace-format.md) with "people"
  std::vector<DecisionTiming> decisions = {};  // the person's decisions with their timing
};

// <folder>/game-NN.json and <folder>/answers-NN.json of game `index` (0-based; NN from 01).
std::filesystem::path sessionGameFile(const std::filesystem::path& folder, int index);
std::filesystem::path sessionAnswersFile(const std::filesystem::path& folder, int index);

// A session file's JSON document; InputError naming the file (too large, not JSON, ...).
Json readSessionJson(const std::filesystem::path& file);

// Refuses (InputError at `where`) a participant id that is empty or longer than 100 characters.
void checkParticipantId(const std::string& id, const std::string& where);

// The plan as session.json records it: every game's number, condition and seed.
Json sessionPlanJson(const StudyProtocol& protocol, const std::vector<PlannedGame>& plan);
// Refuses (InputError at `where`) a session file's "plan" that is not `plan`, the protocol's for
// participant number `ordinal` in order row `row`.
void checkRecordedPlan(const Json& recorded, const std::string& where,
                       const StudyProtocol& protocol, const std::vector<PlannedGame>& plan,
                       int ordinal, int row);
// The session file's "row": an order row of the protocol's (or -1 for the order "random"); a
// session written before rows were recorded took cyclicRow's.
int readRecordedRow(const JsonFields& fields, const StudyProtocol& protocol, int ordinal);

// The game and answers files a session folder holds must be those of the plan's first games, in
// order, each game's answers after the game: InputError naming the first file that is not.
void checkSessionFiles(const std::filesystem::path& folder, size_t planned);
// game-NN.json of game `planned` (its number, condition, record of the plan's seed and a trace),
// with its answers when they were given; InputError naming the file, JSON path and expectation.
SessionGame readSessionGame(const std::filesystem::path& folder, const StudyProtocol& protocol,
                            const PlannedGame& planned);
// Writes each game's game-NN.json (with the person's decisions) and syncs the folder; WriteError.
void writeGameFiles(const std::filesystem::path& folder, const StudyProtocol& protocol,
                    std::span<const PlayedStudyGame> games);
// The answers-NN.json document of game `index`: every answer checked on its item's scale
// (checkStudyAnswer) and its timing against the questionnaire's; InputError otherwise.
Json answersFileJson(int index, const StudyAnswers& answers, const std::vector<StudyItem>& items);

// A page record (consent.json, instructions.json, ...) of `folder`, or none when absent; refused
// when it is not a regular file (a link to another session's consent is not this one's).
std::optional<Json> readPageRecord(const std::filesystem::path& folder, const char* name);
// {"timing": {...}} of a record file, its fields read by `fields`.
ResponseTiming recordTiming(const JsonFields& fields);
// demographics.json (`document`, read from `file`): one of its options per question of `pages`.
DemographicAnswers readDemographics(const Json& document, const std::string& file,
                                    const StudyPages& pages);

// Rewrites <folder>/games.csv (the games-CSV row of every game played, with its position and
// condition in front) and answers.csv (one row per answered game); WriteError.
void writeSessionCsvs(const std::filesystem::path& folder, const StudyProtocol& protocol,
                      std::span<const SessionGame> games);

}  // namespace ddalab
