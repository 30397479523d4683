#include "studies/online_session.h"

#include <cstdio>

#include "core/observation.h"
#include "core/json_input.h"
#include "core/file_io.h"
#include "studies/paced_game.h"

namespace ddalab {

// ---- the game in progress ------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

// Bounds of what a participant may send (docs/web-api.md).
constexpr size_t kMaxCommentBytes = 4000;
constexpr size_t kMaxOptionBytes = 500;
constexpr int64_t kMaxItemMs = 1'000'000'000;

std::filesystem::path movesFile(const std::filesystem::path& folder, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "moves-%02d.jsonl", index + 1);
  return folder / name;
}

const Json& member(const Json& body, const char* key, Json::value_t type, const char* expected) {
  const auto it = body.find(key);
  if (it == body.end()) throw InputError(key, std::string("expected ") + expected + ", got none");
  const bool matches =
      type == Json::value_t::number_integer ? it->is_number_integer() : it->type() == type;
  if (!matches) throw InputError(key, std::string("expected ") + expected);
  return *it;
}

// Refuses a body with a member not in `allowed` (a client's typo must not pass unnoticed).
void onlyKeys(const Json& body, std::initializer_list<const char*> allowed) {
  for (const auto& member : body.items()) {
    const std::string& key = member.key();  // clang 14 cannot capture a structured binding
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
      throw InputError(textExcerpt(key, 100), "unknown member");  // whole characters
  }
}

// The object `body[key]` with exactly one member per item key, each checked by `check`.
template <typename Items, typename Check>
void expectKeys(const Json& object, const char* where, const Items& items, Check check) {
  if (object.size() != items.size())
    throw InputError(where, "expected " + std::to_string(items.size()) + " members, one per item");
  for (const auto& item : items) {
    const auto it = object.find(item.key);
    if (it == object.end()) throw InputError(std::string(where) + "." + item.key, "missing");
    check(item, *it, std::string(where) + "." + item.key);
  }
}

}  // namespace

struct OnlineSession::Game {
  PlannedGame plan;
  std::unique_ptr<PacedGame> paced;
  int seat = 0;
  std::deque<DecisionTiming> replay;     // the person's moves kept before a restart, to apply again
  std::unique_ptr<AppendFile> movesLog;  // moves-NN.jsonl: one line per person's move
  Json board;                            // the seat's screen as of the last action applied

  // The seat's screen of the state (only while no decision runs).
  Json seatNow() const {
    return seatScreen(paced->match().state(), seat, paced->experiment().gameInfo->id);
  }
};

OnlineSession::OnlineSession(StudySession session, DecisionPool& pool, int paceMs)
    : session_(std::move(session)),
      participant_(session_.participant()),
      pool_(pool),
      paceMs_(std::max(0, paceMs)),
      lastActivity_(Clock::now()) {
  const std::vector<bool> people = session_.protocol().people();
  if (std::count(people.begin(), people.end(), true) != 1)
    throw InputError("seats", "an online study needs exactly one seat {\"id\": \"human\"}");
  std::lock_guard lock(mutex_);
  if (session_.step() == SessionStep::Game) startGame();  // resumes a game in progress
}

OnlineSession::~OnlineSession() {
  std::unique_lock lock(mutex_);
  if (!game_) return;
  game_->paced->abandon();
  idle_.wait(lock, [this] { return !game_->paced->deciding(); });
}

void OnlineSession::run(std::function<void()> work, std::function<void()> done) {
  pool_.post([this, work = std::move(work), done = std::move(done)] {
    work();
    std::lock_guard lock(mutex_);
    done();
    idle_.notify_all();
  });
}

void OnlineSession::startGame() {
  const PlannedGame plan = *session_.next();
  auto g = std::make_unique<Game>();
  g->plan = plan;
  const Json experimentJson = session_.protocol().experiment(plan.condition);
  Experiment experiment = parsePlayedExperiment(experimentJson, plan.seed, "protocol");
  std::vector<bool> people = personSeats(experimentJson);
  g->seat = static_cast<int>(std::find(people.begin(), people.end(), true) - people.begin());
  g->paced = std::make_unique<PacedGame>(std::move(experiment), std::move(people), plan.seed,
                                         static_cast<DecisionExecutor&>(*this), machineClock());
  g->paced->setPace(paceMs_, true);
  if (!session_.folder().empty()) g->movesLog = readMoves(g->plan.index, g->replay);
  game_ = std::move(g);
  game_->board = game_->seatNow();
}

void OnlineSession::advance() {
  if (!game_) return;
  Game& g = *game_;
  PacedGame& paced = *g.paced;
  if (!paced.failure().empty()) throw std::runtime_error("a decision failed: " + paced.failure());
  while (!paced.deciding()) {
    if (paced.holding()) {
      if (g.replay.empty() && !paced.heldDue()) return;
      paced.showHeld();
      continue;
    }
    if (paced.over()) return finishGame();
    if (!paced.personToMove()) return scheduleDecision();
    if (g.replay.empty()) {
      paced.markTurnBegan();
      break;
    }
    // A move kept before a restart: applied again as it was (timing included), if still legal.
    const DecisionTiming kept = g.replay.front();
    g.replay.pop_front();
    if (!paced.applyPersonMove(kept.action, kept))
      g.replay.clear();  // the game went otherwise (a changed AI): the person goes on from here
  }
  g.board = g.seatNow();
}

void OnlineSession::scheduleDecision() {
  Game& g = *game_;
  g.board = g.seatNow();
  g.paced->decide();
}

void OnlineSession::finishGame() {
  Game& g = *game_;
  // Saved already when an earlier attempt failed after saving it (rewriting the CSVs).
  if (session_.games().size() <= static_cast<size_t>(g.plan.index)) {
    const GameRecord record = g.paced->finish();
    session_.saveGame(g.plan, record, g.paced->traceLine(), g.paced->personDecisions());
  }
  lastBoard_ = g.seatNow();
  g.movesLog.reset();
  const std::filesystem::path moves = movesFile(session_.folder(), g.plan.index);
  if (!session_.folder().empty() && std::filesystem::is_regular_file(moves))
    std::filesystem::remove(moves);  // the game is kept whole in game-NN.json
  game_.reset();
}

// moves-NN.jsonl holds one decision a line, appended and synced before the move is answered
// (an append costs no new file, unlike an atomic replacement; ext4 spent 30 % of the server's CPU
// creating temporary files under load). A kill can only tear the last line: it is dropped (that
// move was not answered); any other line that is not a decision is refused.
std::unique_ptr<AppendFile> OnlineSession::readMoves(int index,
                                                     std::deque<DecisionTiming>& kept) const {
  const std::filesystem::path moves = movesFile(session_.folder(), index);
  if (!std::filesystem::exists(std::filesystem::symlink_status(moves)))
    return nullptr;  // made at the first move
  const std::vector<bool> people = session_.protocol().people();
  const JsonLines lines = readJsonLines(moves, {16 << 20, "a moves file"});
  for (size_t line = 0; line < lines.values.size(); ++line) {
    const std::string where = moves.string() + ": line " + std::to_string(line + 1);
    kept.push_back(parseDecision(lines.values[line], where));
    const auto seat = static_cast<size_t>(kept.back().seat);  // parseDecision: not negative
    if (seat >= people.size() || !people[seat])
      throw InputError(where + ".seat", "expected the participant's seat, got " +
                                            std::to_string(kept.back().seat) + " (an AI's)");
  }
  return std::make_unique<AppendFile>(moves, lines.completeBytes);
}

void OnlineSession::saveMove(const DecisionTiming& decision) {
  if (session_.folder().empty()) return;
  if (!game_->movesLog) {
    game_->movesLog =
        std::make_unique<AppendFile>(movesFile(session_.folder(), game_->plan.index), 0);
    syncFolder(session_.folder());
  }
  game_->movesLog->write(decisionJson(decision).dump() + "\n");
  game_->movesLog->sync();
}

// ---- screens -------------------------------------------------------------------------------

Json OnlineSession::screen() {
  std::lock_guard lock(mutex_);
  lastActivity_ = Clock::now();
  if (session_.step() == SessionStep::Game && !game_) startGame();
  advance();
  return session_.step() == SessionStep::Game ? gameScreen() : pageScreen();
}

Json OnlineSession::gameScreen() {
  Game& g = *game_;
  const bool turn = g.replay.empty() && g.paced->personToMove();
  if (turn) g.paced->markTurnShown();
  Json screen = {{"kind", "game"},
                 {"label", gameLabel(g.plan.index, session_.plan().size())},
                 {"board", g.board},
                 {"waiting", !turn}};
  if (!turn) {  // when asking again is worth it
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(g.paced->due() - Clock::now())
            .count();
    screen["poll_ms"] = std::clamp<int64_t>(left, 50, 1000);
  }
  return screen;
}

Json OnlineSession::pageScreen() {
  const SessionStep step = session_.step();
  const StudyPages& pages = session_.protocol().pages;
  const int key = static_cast<int>(step) * 1000 + static_cast<int>(session_.answered());
  if (key != pageKey_ || !pageClock_) {
    pageKey_ = key;
    pageClock_.emplace();
  }
  switch (step) {
    case SessionStep::Consent:
      return {{"kind", "consent"},
              {"text", pages.consent},
              {"agree", pages.agree},
              {"decline", pages.decline}};
    case SessionStep::Demographics: {
      Json items = Json::array();
      for (const DemographicItem& item : pages.demographics)
        items.push_back({{"key", item.key}, {"text", item.text}, {"options", item.options}});
      return {{"kind", "demographics"}, {"items", items}};
    }
    case SessionStep::Instructions:
      return {{"kind", "instructions"}, {"text", pages.instructions}};
    case SessionStep::Questionnaire: {
      Json items = Json::array();
      for (const StudyItem& item : session_.protocol().items)
        items.push_back({{"key", item.key},
                         {"text", item.text},
                         {"scale", studyScaleName(item.scale)},
                         {"min", item.min()},
                         {"max", item.max()},
                         {"low", item.low},
                         {"high", item.high},
                         {"anchors", item.anchors}});
      const int index = session_.next()->index;
      Json screen = {{"kind", "questionnaire"},
                     {"label", gameLabel(index, session_.plan().size())},
                     {"items", items},
                     {"comment", session_.protocol().comment}};
      if (lastBoard_) screen["board"] = *lastBoard_;
      return screen;
    }
    case SessionStep::Debrief:
      return {{"kind", "debrief"}, {"text", pages.debrief}};
    case SessionStep::Complete:
      return {{"kind", "complete"}};
    case SessionStep::Declined:
    case SessionStep::DroppedOut:
    case SessionStep::Game:
      break;
  }
  return {{"kind", "ended"}, {"reason", session_.dropoutReason()}};
}

ResponseTiming OnlineSession::pageTiming() {
  const ResponseTiming timing = pageClock_ ? pageClock_->stop() : ResponseClock().stop();
  pageClock_.reset();
  return timing;
}

// ---- submissions ---------------------------------------------------------------------------

void OnlineSession::submit(const std::string& kind, const Json& body) {
  std::lock_guard lock(mutex_);
  lastActivity_ = Clock::now();
  if (!body.is_object()) throw InputError("", "expected a JSON object");
  if (session_.step() == SessionStep::Game && !game_) startGame();
  advance();
  if (kind == "action") return submitAction(body);
  if (kind == "answers") return submitAnswers(body);
  submitPage(kind, body);
}

void OnlineSession::submitPage(const std::string& kind, const Json& body) {
  const SessionStep step = session_.step();
  if (kind == "consent") {
    if (step != SessionStep::Consent) throw StepConflict("the consent is not asked now");
    onlyKeys(body, {"agree"});
    const bool agree = member(body, "agree", Json::value_t::boolean, "true or false").get<bool>();
    return session_.recordConsent(agree, pageTiming());
  }
  if (kind == "demographics") {
    if (step != SessionStep::Demographics) throw StepConflict("the demographics are not asked now");
    onlyKeys(body, {"answers"});
    const Json& answers = member(body, "answers", Json::value_t::object, "an object");
    DemographicAnswers given;
    expectKeys(
        answers, "answers", session_.protocol().pages.demographics,
        [](const DemographicItem&, const Json& value, const std::string& where) {
          if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxOptionBytes)
            throw InputError(where, "expected one of the question's options (a string)");
        });
    for (const DemographicItem& item : session_.protocol().pages.demographics)
      given.values.push_back(answers[item.key].get<std::string>());
    given.timing = pageTiming();
    return session_.saveDemographics(given);
  }
  if (kind == "read") {
    onlyKeys(body, {});
    if (step == SessionStep::Instructions) return session_.recordInstructionsRead(pageTiming());
    if (step == SessionStep::Debrief) return session_.recordDebriefRead(pageTiming());
    throw StepConflict("there is no text to confirm now");
  }
  throw InputError("kind", "expected consent, demographics, read, action or answers");
}

void OnlineSession::submitAction(const Json& body) {
  if (!game_) throw StepConflict("no game is being played");
  Game& g = *game_;
  PacedGame& paced = *g.paced;
  if (!g.replay.empty() || !paced.personToMove()) throw StepConflict("it is not your turn");
  onlyKeys(body, {"action"});
  const Json& value = member(body, "action", Json::value_t::number_integer, "an integer");
  const int64_t wanted = value.get<int64_t>();
  const std::span<const Action> legal = paced.legal();
  if (std::find(legal.begin(), legal.end(), wanted) == legal.end())
    throw InputError("action", "expected one of the screen's legal actions");
  const Action action = static_cast<Action>(wanted);
  const std::optional<DecisionTiming> decision = paced.personDecision(action);
  // Acknowledged exactly when durable: kept first, so a move that cannot be written (a full disk:
  // WriteError, HTTP 503) is not applied and the participant's retry is the same turn.
  saveMove(*decision);  // the turn's clock runs: advance() started it
  paced.applyPersonMove(action, decision);
  try {
    advance();
  } catch (const WriteError&) {
    // The move is kept; a game it ended is saved again at the next screen (which reports the
    // failure if it persists).
  }
}

void OnlineSession::submitAnswers(const Json& body) {
  if (session_.step() != SessionStep::Questionnaire)
    throw StepConflict("no questionnaire is asked now");
  onlyKeys(body, {"answers", "item_ms", "comment"});
  const std::vector<StudyItem>& items = session_.protocol().items;
  const Json& values = member(body, "answers", Json::value_t::object, "an object");
  const Json& times = member(body, "item_ms", Json::value_t::object, "an object");
  StudyAnswers answers;
  expectKeys(values, "answers", items,
             [](const StudyItem& item, const Json& v, const std::string& where) {
               checkStudyAnswer(item, v, where);
             });
  expectKeys(times, "item_ms", items,
             [](const StudyItem&, const Json& v, const std::string& where) {
               if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > kMaxItemMs)
                 throw InputError(where, "expected whole milliseconds, 0 to 10^9");
             });
  if (const auto it = body.find("comment"); it != body.end()) {
    if (!it->is_string() || it->get_ref<const std::string&>().size() > kMaxCommentBytes)
      throw InputError("comment", "expected a string of at most 4000 bytes");
    if (!session_.protocol().comment && !it->get_ref<const std::string&>().empty())
      throw InputError("comment", "expected none: the protocol asks for no comment");
    answers.comment = it->get<std::string>();
  }
  answers.timing = pageClock_ ? pageClock_->stop() : ResponseClock().stop();
  for (const StudyItem& item : items) {
    answers.values.push_back(values[item.key].get<double>());
    // The browser's clock measured each item; bounded by the server's time for the page.
    answers.itemMs.push_back(std::min(times[item.key].get<int64_t>(), answers.timing->responseMs));
  }
  session_.saveAnswers(session_.next()->index, answers);
  pageClock_.reset();
  lastBoard_.reset();
}

// ---- the researcher's side -----------------------------------------------------------------

void OnlineSession::drop(const std::string& reason) {
  std::unique_lock lock(mutex_);
  if (sessionEnded(session_.step())) return;
  if (game_) {
    game_->paced->abandon();
    idle_.wait(lock, [this] { return !game_->paced->deciding(); });
    game_.reset();
  }
  session_.recordDropout(reason);
}

SessionStep OnlineSession::step() {
  std::lock_guard lock(mutex_);
  return session_.step();
}

std::unique_ptr<State> OnlineSession::peekState() {
  std::lock_guard lock(mutex_);
  if (!game_ || game_->paced->deciding()) return nullptr;
  return game_->paced->match().state().clone();
}

std::chrono::steady_clock::time_point OnlineSession::lastActivity() {
  std::lock_guard lock(mutex_);
  return lastActivity_;
}

}  // namespace ddalab
