#pragma once
// The user-study protocol, format ddalab-study/1 (docs/user-study.md): which game people play
// against which AIs, under which conditions (environment players), in which order and with which
// questionnaire after every game, and the pages they read besides. This header reads and
// validates a protocol; plan.h turns it into a participant's games, study_session.h runs them.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "experiments/batch.h"
#include "experiments/lineup.h"
#include "studies/instrument.h"

namespace ddalab {

inline constexpr const char* kStudyFormat = "ddalab-study/1";

// One condition: an environment player with its parameters and coefficients.
struct StudyCondition {
  std::string name;
  Json environment;   // {"id", "params"} as in an experiment
  Json coefficients;  // as in an experiment (the protocol's when the condition has none)
};

enum class OrderScheme { LatinSquare, Random };

// The pre-registered analysis (the protocol's "analysis"): one primary test, reported alone and
// unadjusted; every other test is exploratory and Holm-adjusted.
struct StudyAnalysisPlan {
  std::string primaryItem;                  // "" when the protocol registers none
  std::string primaryFirst, primarySecond;  // the contrast first minus second (condition names)
  double alpha = 0.05;
};

// A demographics question: one option chosen from a list (an age band, how often one plays, ...).
// No free text: a study asks nothing that could name the participant.
struct DemographicItem {
  std::string key;   // its column in the export ("age_band")
  std::string text;  // the question
  std::vector<std::string> options;
};

// What a participant reads and answers besides the games, in this order; each part is optional.
struct StudyPages {
  std::string consent;  // the consent text ("" none: the session starts with what follows)
  std::string agree = "I agree to take part";  // the consent's two buttons
  std::string decline = "I do not agree";
  std::vector<DemographicItem> demographics;
  std::string instructions;  // shown once before the first game
  std::string debrief;       // shown after the last questionnaire
};

// How `ddalab serve` runs the study online (the protocol's "completion" and "online"; both
// optional): what a participant gets at the end, and how the server finds and times them.
struct StudyOnline {
  std::string completionCode;           // shown on the last page ("" none)
  std::string completionRedirect;       // an https:// URL the last page sends them to ("" none)
  std::string idParam = "participant";  // the query parameter holding the platform's id
  double timeoutMinutes = 30;           // idle this long: recorded as a dropout
};

// The milliseconds between the AIs' and the environment's shown moves in a person's session,
// unless the protocol's "pace_ms" says otherwise: every participant sees the same pace.
inline constexpr int kDefaultStudyPaceMs = 600;

// The columns the study's CSV writers write themselves beside a protocol's keys: answers.csv puts
// the items' keys between its own, the export (studies/export.cpp) the demographics' keys after
// its participant columns. The writers build their headers from these lists, and a protocol with a
// key among them is refused, so that no header holds a column twice.
inline constexpr std::array<const char*, 2> kAnswersCsvLeadColumns = {"game", "condition"};
inline constexpr const char* kAnswersCsvCommentColumn = "comment";
inline constexpr std::array<const char*, 3> kExportParticipantColumns = {"participant", "order_row",
                                                                         "status"};
inline constexpr std::array<const char*, 7> kExportGameColumns = {
    "period",    "condition", "condition_number",  "game",
    "game_seed", "decisions", "decision_ms_median"};  // then every metric's column
inline constexpr std::array<const char*, 6> kExportAnswerColumns = {"item",
                                                                    "answer",
                                                                    "item_ms",
                                                                    "questionnaire_shown_at",
                                                                    "questionnaire_answered_at",
                                                                    "questionnaire_ms"};
// Every column of answers.csv that is not an item's.
std::vector<std::string> answersCsvOwnColumns();
// Every column of the export that is not a demographics question's (the metrics' included).
std::vector<std::string> exportOwnColumns();

struct StudyProtocol {
  std::string name;
  std::string description;
  uint64_t seed = 0;
  Json game;   // {"id", "params"}
  Json seats;  // the experiment's "players"; a person's seat is {"id": "human"}
  std::vector<StudyCondition> conditions;
  int gamesPerCondition = 1;
  int paceMs = kDefaultStudyPaceMs;  // "pace_ms": between the AIs' shown moves (GUI and online)
  OrderScheme order = OrderScheme::LatinSquare;
  // The instruments' items in the order the protocol names them, then its own "questionnaire".
  std::vector<StudyItem> items;
  std::vector<StudySubscale> subscales;  // the instruments', indexes into `items`
  std::vector<std::string> instruments;  // their citations, in order
  bool comment = true;                   // an optional free-text comment after the items
  StudyAnalysisPlan analysis;
  StudyPages pages;
  StudyOnline online;
  // The seat an AI takes in `study simulate` (none: the game's default AI at level 100).
  Json simulatedPerson;
  Json document;  // the protocol as validated, defaults written out (what a session records)

  // The keys of items whose text is empty (an instrument shipped without its texts): a person's
  // session cannot start until they are filled in.
  std::vector<std::string> missingTexts() const;
  // Seats a person plays.
  std::vector<bool> people() const;
  // The experiment (as a batch file holds it) of a game under condition `c`.
  Json experiment(size_t c) const;
  // The same with an AI in the participant's seat: `simulatedPerson`, or the game's default AI
  // at level 100 (what `study simulate` plays and an experiment with fitted coefficients uses).
  Json simulatedExperiment(size_t c) const;
};

// Reads and validates a protocol; errors (InputError) name the file, the JSON path and what was
// expected, like those of batch files. Every condition is validated as an experiment.
StudyProtocol loadStudyProtocol(const std::filesystem::path& file);
// Whether `file` says it is a study protocol ("format": "ddalab-study/1"); false for anything
// else, unreadable or invalid files included (their reader says what is wrong).
bool isStudyProtocolFile(const std::filesystem::path& file);
// Instrument files ("instruments": ["mine.json"]) are read from `base`; without it (a protocol a
// session recorded, every instrument inline) a file is refused.
StudyProtocol parseStudyProtocol(const Json& document, const std::string& source,
                                 const std::optional<std::filesystem::path>& base = std::nullopt);

// The questionnaire a protocol without instruments or one of its own gets: the built-in
// instrument ddalab-quick (enjoyment, tension, fairness, whether the dice or cards seemed
// manipulated, and difficulty, 1-7), and a free comment.
std::vector<StudyItem> defaultStudyItems(const std::string& gameId);

// Lines for `validate`: the instruments a protocol uses (with their citations), its subscales,
// and a warning naming the items whose texts a researcher must still fill in.
std::string describeInstruments(const StudyProtocol& protocol);

// Refuses (InputError) a protocol whose items have no text: people cannot answer them.
void checkTextsFilledIn(const StudyProtocol& protocol);

// Checks one answer to `item` as it is saved and as it is read back: a whole number on the item's
// scale (1-7, 0-100); an InputError at `where` (a file and JSON path) saying so otherwise.
void checkStudyAnswer(const StudyItem& item, const Json& value, const std::string& where);

}  // namespace ddalab
