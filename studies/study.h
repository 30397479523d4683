#pragma once
// User studies (docs/user-study.md): a protocol file says which game people play against which
// AIs, under which conditions (environment players), in which order and with which questionnaire
// after every game; a session folder keeps one participant's games and answers, each written the
// moment it exists, so that a session survives a crash and resumes at the next game.
#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/match.h"
#include "experiments/batch.h"
#include "experiments/lineup.h"
#include "studies/instrument.h"
#include "studies/timing.h"

namespace ddalab {

inline constexpr const char* kStudyFormat = "ddalab-study/1";
inline constexpr const char* kSessionFormat = "ddalab-session/1";
// The dropout reason of a participant who declined consent.
inline constexpr const char* kDeclinedConsent = "declined consent";

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

// Participant numbers a study folder may hold (its plans' seeds are 1000 x number + game); a
// session file's "ordinal" is at most this.
inline constexpr long long kMaxSessionOrdinal = 1'000'000;

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

// One game of a participant's plan.
struct PlannedGame {
  int index = 0;  // 0-based position in the session
  size_t condition = 0;
  uint64_t seed = 0;
};

// The games participant number `ordinal` plays: every condition gamesPerCondition times, in
// rounds of one game per condition whose order is row `row` of a balanced Latin square (Williams:
// every condition precedes every other equally often over n rows, 2n for an odd n), or a shuffle
// seeded by the protocol's seed and the ordinal (order "random": `row` is not used); each game has
// its own seed, from the ordinal.
std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal, int row);
// The plan of a simulated participant: row cyclicRow(protocol, ordinal).
std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal);
// The number of order rows of the protocol's Latin square (0 for the order "random").
int orderRows(const StudyProtocol& protocol);
// The row a simulated participant number `ordinal` takes (and a session recorded before
// allocation.jsonl existed took): ordinal modulo the rows; -1 for the order "random".
int cyclicRow(const StudyProtocol& protocol, int ordinal);

// The rows of a balanced Latin square of n conditions (n rows for an even n, 2n for an odd n).
std::vector<std::vector<size_t>> balancedLatinSquare(size_t n);

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

// Where a session stands: what the participant is shown next.
enum class SessionStep {
  Consent,        // the consent text, to agree or decline
  Demographics,   // the demographics questions
  Instructions,   // the instructions, read before the first game
  Game,           // next(): a game to play
  Questionnaire,  // next(): a game played, its answers owed
  Debrief,        // the debrief text after the last questionnaire
  Complete,       // everything done
  Declined,       // the participant declined consent: the session ended there
  DroppedOut,     // the participant left (withdrawn, timed out): the session ended there
};

// Whether a session at `step` has ended: complete, consent declined or dropped out.
inline bool sessionEnded(SessionStep step) {
  return step == SessionStep::Complete || step == SessionStep::Declined ||
         step == SessionStep::DroppedOut;
}

// "Game 2 of 6": how a participant is told which of the plan's `games` game `index` (from 0)
// is, the condition left out (the heading of a game and of its questionnaire).
inline std::string gameLabel(int index, size_t games) {
  return "Game " + std::to_string(index + 1) + " of " + std::to_string(games);
}

// Lines for `validate`: the instruments a protocol uses (with their citations), its subscales,
// and a warning naming the items whose texts a researcher must still fill in.
std::string describeInstruments(const StudyProtocol& protocol);

// Refuses (InputError) a protocol whose items have no text: people cannot answer them.
void checkTextsFilledIn(const StudyProtocol& protocol);

// Checks one answer to `item` as it is saved and as it is read back: a whole number on the item's
// scale (1-7, 0-100); an InputError at `where` (a file and JSON path) saying so otherwise.
void checkStudyAnswer(const StudyItem& item, const Json& value, const std::string& where);

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

// A participant's session folder: session.json (protocol, participant, allocation, plan),
// consent.json, demographics.json and instructions.json (when the protocol has them, written when
// answered), game-NN.json (the record, detailed trace and the person's decision times of game NN,
// written when it ends), answers-NN.json (written when the questionnaire is submitted),
// debrief.json, dropout.json (a participant who left), plus games.csv and answers.csv rewritten
// after each game and questionnaire.
class StudySession {
 public:
  // How the participant's id came about: generated by ddalab (a pseudonym) or given by the
  // researcher (a platform's id, hashed in the exports).
  enum class IdOrigin { Generated, Given };

  // Opens the session in `folder`, creating it for `participant` when the folder holds none: the
  // participant is allocated in the parent folder's allocation.jsonl (allocateParticipant: a
  // number never used before and a random least-used order row). An existing session must be of
  // the same protocol and participant (InputError naming the file otherwise).
  static StudySession open(const std::filesystem::path& folder, const StudyProtocol& protocol,
                           const std::string& participant, IdOrigin origin = IdOrigin::Given);
  // Creates the session of `participant`, number `ordinal`, order row `row` (none: cyclicRow's),
  // in `folder`, which holds none (`study simulate` numbers thousands of participants without a
  // log). A `simulated` participant (an AI) has no consent, demographics, instructions or
  // debrief: its session goes straight to the games. Throws InputError, WriteError.
  static StudySession create(const std::filesystem::path& folder,
                             std::shared_ptr<const StudyProtocol> protocol,
                             const std::string& participant, int ordinal,
                             std::optional<int> row = std::nullopt,
                             IdOrigin origin = IdOrigin::Given, bool simulated = false);
  // Reads a session folder as it is (for the analysis and the researcher's view), checking every
  // file against the protocol it records; InputError naming the file, JSON path and expectation.
  static StudySession read(const std::filesystem::path& folder);
  // A session kept in memory only (simulated studies repeated for their power): nothing written;
  // its row is cyclicRow's.
  static StudySession inMemory(std::shared_ptr<const StudyProtocol> protocol,
                               const std::string& participant, int ordinal);

  const std::filesystem::path& folder() const { return folder_; }
  const StudyProtocol& protocol() const { return *protocol_; }
  const std::string& participant() const { return participant_; }
  int ordinal() const { return ordinal_; }
  // The order row of the Latin square the plan follows (-1 for the order "random").
  int row() const { return row_; }
  IdOrigin idOrigin() const { return idOrigin_; }
  // Whether an AI played the participant's seat (`study simulate`): no pages, no timing.
  bool simulated() const { return simulated_; }
  // What the participant gave and when (none before they did, or when the protocol asks nothing).
  const std::optional<ResponseTiming>& consent() const { return consent_; }
  const std::optional<DemographicAnswers>& demographics() const { return demographics_; }
  // Whether the participant's answers may be analysed and exported: consent.json records that
  // they agreed, or the protocol asks no consent (a simulated participant is never asked).
  bool consented() const;
  // Why the participant left ("declined consent", "withdrawn", "timed out"); "" while they have
  // not.
  const std::string& dropoutReason() const { return dropoutReason_; }
  const std::vector<PlannedGame>& plan() const { return plan_; }
  const std::vector<SessionGame>& games() const { return games_; }
  // The protocol's checksum, by which sessions of one study are recognised.
  const std::string& protocolChecksum() const { return checksum_; }

  // What the participant is shown next: consent, demographics and instructions (those the
  // protocol has, each until answered), the games and their questionnaires, the debrief.
  SessionStep step() const;
  // Where the session stands, for people: "complete", "consent declined", "dropped out: REASON"
  // or "K of N answered" (the GUI's session list, the export's status column).
  std::string statusText() const;
  // The participant agreed (the session goes on) or declined (it ends, recorded as a dropout):
  // consent.json. Throws std::logic_error unless step() is Consent; WriteError.
  void recordConsent(bool agreed, const ResponseTiming& timing);
  // demographics.json; InputError for an answer that is not one of its item's options (or a
  // count not the protocol's), std::logic_error unless step() is Demographics; WriteError.
  void saveDemographics(const DemographicAnswers& answers);
  // instructions.json, debrief.json: when the participant was shown the text and went on.
  void recordInstructionsRead(const ResponseTiming& timing);
  void recordDebriefRead(const ResponseTiming& timing);
  // The participant left before the end (`reason`): dropout.json and the allocation log, so the
  // order row goes to a later participant. Nothing is recorded for a complete session.
  void recordDropout(const std::string& reason);

  // The game to play next (none when every game is answered); a game played but not yet answered
  // comes back for its questionnaire (`needsAnswersOnly`).
  std::optional<PlannedGame> next() const;
  bool needsAnswersOnly() const;
  size_t answered() const;
  bool complete() const { return answered() == plan_.size(); }

  // A copy in memory for the analysis, of `protocol` (this session's items and more after them),
  // each game's answers extended by `derive(values)`.
  StudySession withDerivedAnswers(
      std::shared_ptr<const StudyProtocol> protocol,
      const std::function<std::vector<double>(const std::vector<double>&)>& derive) const;

  // Keeps the game just played (game-NN.json with the person's decisions, games.csv); throws
  // WriteError.
  void saveGame(const PlannedGame& game, const GameRecord& record, const Json& trace,
                std::span<const DecisionTiming> decisions = {});
  // Keeps games just played, next in the plan's order: as saveGame each, with the folder synced
  // and the CSVs rewritten once (a simulated participant's games).
  void saveGames(std::span<const PlayedStudyGame> games);
  // Keeps its answers (answers-NN.json, answers.csv); throws InputError for a value off its
  // item's scale (checkStudyAnswer) or a missing one, WriteError.
  void saveAnswers(int index, const StudyAnswers& answers);
  // Keeps the answers to games first, first + 1, ...: as saveAnswers each, every answer checked
  // before any file is written, with the folder synced and the CSVs rewritten once.
  void saveAnswers(int first, std::span<const StudyAnswers> answers);

 private:
  void load();
  void writeCsvs() const;
  // Throws std::logic_error unless step() is `expected` (`what` names the caller).
  void expectStep(SessionStep expected, const char* what) const;
  // Writes `record` as the session folder's file `name` (nothing for a session in memory).
  void writeRecord(const char* name, const Json& record) const;
  void markDropout(const std::string& reason);

  std::filesystem::path folder_;
  std::shared_ptr<const StudyProtocol> protocol_;  // shared by the sessions one writer creates
  std::string checksum_;
  std::string participant_;
  int ordinal_ = 0;
  int row_ = -1;
  IdOrigin idOrigin_ = IdOrigin::Given;
  bool simulated_ = false;
  std::optional<ResponseTiming> consent_, instructions_, debrief_;
  bool declined_ = false;
  std::optional<DemographicAnswers> demographics_;
  std::string dropoutReason_;
  std::vector<PlannedGame> plan_;
  std::vector<SessionGame> games_;  // in plan order, as far as played
};

}  // namespace ddalab
