// ddalab-gui, game mode, driven the way a person drives it: a person's seat plays a
// whole game of every game by clicking the view's own hit areas against AIs with an E-player
// steering, and the game ends with the record the core's match loop gives for those choices; an
// illegal click changes nothing and says why; a replay rebuilds every round's gains and statuses
// and the recorded F breakdowns add up; the window answers while an AI thinks.
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QPaintEngine>
#include <QPainterPath>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <random>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/main_window.h"
#include "app/gui/play/live_panel.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/play/replay.h"
#include "app/gui/play/trace_picker.h"
#include "app/gui/views/game_view.h"
#include "app/gui/views/generic_view.h"
#include "app/gui/views/hexalines_view.h"
#include "app/gui/views/ludo_view.h"
#include "app/gui/views/lost_cities_view.h"
#include "core/params.h"
#include "core/status.h"
#include "experiments/batch.h"
#include "experiments/plugins.h"
#include "games/hexalines/hexalines.h"
#include "games/lost-cities/lost_cities.h"
#include "games/registry.h"
#include "tests/app/gui/gui_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

const QString kCli = DDALAB_CLI;

// A person on seat 0 against cheap AIs, e-hillclimber steering with the thesis's coefficients
// (HexaLines: a HillClimber and a random player, e-random steering).
GameSetup personAgainstAis(const std::string& game, uint64_t seed) {
  GameSetup setup = PlayMode::defaultSetup(game, seed);
  for (size_t seat = 1; seat < setup.experiment["players"].size(); ++seat)
    if (game == "lost-cities")
      setup.experiment["players"][seat] = {{"id", "hillclimber-is"}, {"params", {{"samples", 3}}}};
  if (game == "hexalines") {
    setup.experiment["players"][1] = {{"id", "hillclimber"}};
    setup.experiment["players"][2] = {{"id", "random"}};
    setup.experiment["environment"] = {{"id", "e-random"}};
  }
  return setup;
}

// The number cards of `state` that seat `person` may not know: those in the other hand it did
// not see taken from a pile and those in the deck (each number card exists once; wagers have no
// name of their own).
QStringList secretCards(const lostcities::LostCitiesState& state, int person) {
  QStringList names;
  for (int kind = 0; kind < lostcities::kKinds; ++kind)
    if (lostcities::rankOf(kind) != 0 &&
        ((state.hand(1 - person).count(kind) && !state.known(person).count(kind)) ||
         state.deckCards().count(kind)))
      names << QString::fromStdString(lostcities::cardName(kind));
  return names;
}

// The first card of `names` that `text` names as a word ("" when none).
QString namedIn(const QString& text, const QStringList& names) {
  for (const QString& name : names)
    if (QRegularExpression("\\b" + name + "\\b").match(text).hasMatch()) return name;
  return {};
}

// Every text the live panel shows: its labels and its tables' cells.
QString panelText(const LivePanel& panel) {
  QStringList texts;
  for (QLabel* label : panel.findChildren<QLabel*>()) texts << label->text();
  for (QTableWidget* table : panel.findChildren<QTableWidget*>())
    for (int r = 0; r < table->rowCount(); ++r)
      for (int c = 0; c < table->columnCount(); ++c)
        if (table->item(r, c)) texts << table->item(r, c)->text();
  return " " + texts.join(" ") + " ";
}

// The cells of column `column` of the panel's table whose column `column` is headed `header`.
QStringList panelColumn(const LivePanel& panel, const QString& header, int column) {
  QStringList cells;
  for (QTableWidget* table : panel.findChildren<QTableWidget*>())
    if (table->horizontalHeaderItem(column) &&
        table->horizontalHeaderItem(column)->text() == header)
      for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, column)) cells << table->item(r, column)->text();
  return cells;
}

// The share of the pixels of the Lost Cities view's top strip (the opponent's hand) in none of
// the colours of the felt and of a card's back: card faces (face down, only edges blend).
double faceShareOnTop(GameView& view) {
  const QImage image = view.grab().toImage();
  const QColor palette[] = {QColor(0x2f, 0x4f, 0x3a), QColor(0x5a, 0x3e, 0x2b),
                            QColor(0xc8, 0xa8, 0x6a), QColor(0x20, 0x20, 0x20)};
  int faces = 0, all = 0;
  for (int y = 14; y < 14 + view.height() / 40; ++y)
    for (int x = 0; x < image.width(); ++x, ++all) {
      const QColor c = image.pixelColor(x, y);
      bool known = false;
      for (const QColor& p : palette)
        known = known || std::max({std::abs(c.red() - p.red()), std::abs(c.green() - p.green()),
                                   std::abs(c.blue() - p.blue())}) < 60;
      faces += known ? 0 : 1;
    }
  return double(faces) / std::max(1, all);
}

// The record the core's match loop gives when a person's seat plays `personMoves` in order and
// the AIs and the environment are built as the session built them.
// The hit area whose label starts with `prefix` (an empty rect when there is none).
GameView::HitArea areaStartingWith(const GameView& view, const QString& prefix) {
  for (const auto& a : view.hitAreas())
    if (a.label.startsWith(prefix)) return a;
  return {};
}

// A paint device that keeps what is painted on it: the texts drawn and the pen styles of the
// lines and paths (a board rendered onto it tells which marks it draws besides colour).
class RecordingDevice : public QPaintDevice {
 public:
  explicit RecordingDevice(QSize size) : size_(size) {}
  QPaintEngine* paintEngine() const override { return &engine_; }
  QStringList texts() const { return engine_.texts; }
  QSet<int> penStyles() const { return engine_.styles; }

 protected:
  int metric(PaintDeviceMetric m) const override {
    switch (m) {
      case PdmWidth:
        return size_.width();
      case PdmHeight:
        return size_.height();
      case PdmDpiX:
      case PdmDpiY:
      case PdmPhysicalDpiX:
      case PdmPhysicalDpiY:
        return 96;
      case PdmDepth:
        return 32;
      case PdmDevicePixelRatio:
        return 1;
      case PdmDevicePixelRatioScaled:
        return static_cast<int>(devicePixelRatioFScale());
      case PdmWidthMM:
        return size_.width() * 254 / 960;
      case PdmHeightMM:
        return size_.height() * 254 / 960;
      default:
        return 256;
    }
  }

 private:
  struct Engine : QPaintEngine {
    Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState& state) override {
      if (state.state() & DirtyPen) pen = state.pen();
    }
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawTextItem(const QPointF&, const QTextItem& item) override { texts << item.text(); }
    void drawPath(const QPainterPath&) override { styles.insert(pen.style()); }
    void drawLines(const QLineF*, int) override { styles.insert(pen.style()); }
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawEllipse(const QRectF&) override {}
    void drawRects(const QRectF*, int) override {}
    Type type() const override { return QPaintEngine::User; }
    QPen pen;
    QStringList texts;
    QSet<int> styles;
  };
  QSize size_;
  mutable Engine engine_;
};

// The game `id`'s first state at a regular player's decision (chance dealt by its first
// outcome).
std::unique_ptr<State> firstDecision(const std::string& id, int players = 2) {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "game");
  Json params = Json::object();
  if (id == "ludo") params["players"] = players;
  std::unique_ptr<State> state =
      info.make(validateParams(info.params, params, "params"))->newGame(3);
  while (state->isEnvironmentNode()) {
    std::vector<Outcome> outcomes;
    state->outcomes(outcomes);
    state->apply(outcomes.front().action);
  }
  return state;
}

// A HexaLines game at red's decision: red's bend (sides 0 and 1, six orientations) stands in
// front of its source and the same bend is revealed.
std::unique_ptr<hexalines::HexaLinesState> hexaLinesWithOwnBend() {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "game");
  std::unique_ptr<State> state =
      info.make(validateParams(info.params, nullptr, "params"))->newGame(1);
  auto hexaLines = std::unique_ptr<hexalines::HexaLinesState>(
      dynamic_cast<hexalines::HexaLinesState*>(state.release()));
  using hexalines::kWall;
  const hexalines::Shape bend = hexalines::normalized({0, 0, kWall, kWall, kWall, kWall});
  hexaLines->placeForTest(hexaLines->frontField(0), bend, 0);
  hexaLines->revealForTest(0, bend);
  hexaLines->recomputeForTest(0);
  return hexaLines;
}

GameRecord coreRecord(const GameSetup& setup, const std::vector<Action>& personMoves) {
  const Experiment e = parseSetup(setup);
  const auto human = personSeats(setup.experiment);
  std::vector<std::unique_ptr<Player>> players;
  for (size_t seat = 0; seat < e.players.size(); ++seat)
    players.push_back(
        human[seat] ? nullptr
                    : e.players[seat].info->makeRegular({*e.game, e.players[seat].level,
                                                         e.players[seat].params, e.coefficients}));
  auto environment =
      e.environment.info->makeEnvironment({*e.game, 100, e.environment.params, e.coefficients});
  Match match(*e.game, setup.seed);
  size_t next = 0;
  while (!match.over()) {
    const int actor = match.actor();
    if (actor == kEnvironment)
      match.apply(match.decide(*environment));
    else if (human[static_cast<size_t>(actor)])
      match.apply(personMoves.at(next++));
    else
      match.apply(match.decide(*players[static_cast<size_t>(actor)]));
  }
  return match.record();
}

// A person on seat 0 plays `game` in `window` to the end by random clicks on the hit areas; the
// record equals the core's replay of the same actions.
void playByClicks(MainWindow& window, const std::string& game) {
  window.show();
  PlayMode& mode = *window.playMode();
  GameSession& session = *mode.session();
  const GameSetup setup = personAgainstAis(game, 7);
  session.setDelay(0);
  QVERIFY(mode.newGame(setup));
  std::vector<Action> moves;
  // Hit areas only lead to legal actions, so every chosen action is applied.
  QObject::connect(mode.view(), &GameView::actionChosen, mode.view(),
                   [&](Action a) { moves.push_back(a); });
  std::mt19937 random(42);
  while (true) {
    QVERIFY2(waitForPerson(session), game.c_str());
    if (session.match().over()) break;
    clickAMove(*mode.view(), session, random);
    if (QTest::currentTestFailed()) return;
  }
  const GameRecord played = session.match().record();
  qInfo("%s: %d rounds, %zu moves by clicks, winner %d", game.c_str(),
        session.match().tracker().rounds(), moves.size(), played.winner);
  QVERIFY(moves.size() >= 10);
  QCOMPARE(fingerprint(played), fingerprint(coreRecord(setup, moves)));
}

}  // namespace

class GameModeTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // A person plays a whole game of each game with the mouse; the record equals the core's.
  void personPlaysEveryGameByClicks() {
    for (const std::string game : {"ludo", "lost-cities", "maze", "hexalines"}) {
      MainWindow window;
      playByClicks(window, game);
      if (QTest::currentTestFailed()) return;
    }
  }

  // A plug-in's second library brings its game's board: loaded like a plug-in (File -> Load
  // plug-in...), the next game of it shows that board instead of the generic view, played to the
  // end by clicks; the CLI's loader refuses the view library (ddalab-gui's alone).
  void pluginViewLibraryDrawsItsBoard() {
    MainWindow window;
    QString error;
    QVERIFY2(window.loadPlugin(DDALAB_DICE_PLUGIN, &error), qPrintable(error));
    QVERIFY2(window.loadPlugin(DDALAB_DICE_VIEW_PLUGIN, &error), qPrintable(error));
    playByClicks(window, "pig");
    GameView* view = window.playMode()->view();
    QVERIFY(view && !qobject_cast<GenericView*>(view));
    const QTemporaryDir shots;  // the board must render; the picture is not kept
    QVERIFY(window.grab().save(shots.filePath("pig-view.png")));
    try {
      ddalab::loadPlugin(DDALAB_DICE_VIEW_PLUGIN);
      QFAIL("the view library was loaded as a plug-in");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("view library: ddalab-gui loads it"), e.what());
    }
  }

  // A plug-in's game, which has no board of its own, is played to the end by clicks in the
  // generic view: the state's text and the legal actions as buttons (examples/plugin-dice,
  // loaded as File -> Load plug-in... loads it; its game joins the game lists).
  void pluginGamePlayedInTheGenericView() {
    MainWindow window;
    QString error;
    QVERIFY2(window.loadPlugin(DDALAB_DICE_PLUGIN, &error), qPrintable(error));
    bool listed = false;  // Add's game list in the batch toolbar
    for (QComboBox* box : window.findChildren<QComboBox*>())
      listed = listed || (box->findText("ludo") >= 0 && box->findText("pig") >= 0);
    QVERIFY(listed);
    playByClicks(window, "pig");
    QVERIFY(qobject_cast<GenericView*>(window.playMode()->view()));
    // Refused: the same plug-in's file again is no new load, another with a taken id is.
    QVERIFY(window.loadPlugin(DDALAB_DICE_PLUGIN));
    QVERIFY(!window.loadPlugin("/nonexistent/plugin.so", &error));
    QVERIFY2(error.contains("no such plug-in file"), qPrintable(error));
  }
  // A plug-in's metric joins the queue as a column (its label, its description as the tooltip)
  // and the live panel's metrics; a row whose games were played before it was loaded says
  // "n/a" there instead of a made-up 0.
  void pluginMetricJoinsTheQueueAndThePanel() {
    MainWindow window;
    QueueModel& queue = *window.batch()->queue();
    queue.append(Json::parse(R"({"name": "before", "game": {"id": "ludo"},
                                "environment": {"id": "e-random"}, "iterations": 4})"));
    GameRecord game;
    game.numPlayers = 4;
    game.metrics[static_cast<size_t>(Metric::Rounds)] = 80;
    queue.addGames(0, std::span(&game, 1));
    const int columnsBefore = queue.columnCount();
    QString error;
    QVERIFY2(window.loadPlugin(DDALAB_DICE_PLUGIN, &error), qPrintable(error));
    QCOMPARE(queue.columnCount(), columnsBefore + 1);
    const int swing = metricColumn(*metricByKey("swing"));
    QCOMPARE(queue.headerData(swing, Qt::Horizontal, Qt::DisplayRole).toString(), QString("Swing"));
    QVERIFY(
        queue.headerData(swing, Qt::Horizontal, Qt::ToolTipRole).toString().contains("trailed"));
    QCOMPARE(queue.data(queue.index(0, swing), Qt::DisplayRole).toString(), QString("n/a"));
    QCOMPARE(window.batch()->queueView()->model()->columnCount(), columnsBefore + 1);
    playByClicks(window, "pig");
    QVERIFY(panelText(*window.playMode()->panel()).contains(" swing "));
  }
  // Playing Lost Cities against an AI, the live panel never names a card the person may not
  // know: the AI's hand, the cards the deck gave it (it showed "deck gives Y9": a cheat sheet),
  // the deck's cards as the outcomes of a draw. View -> Show hidden information shows the draw.
  void lostCitiesKeepsTheAisCardsHidden() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    GameSession& session = *mode.session();
    session.setDelay(0);
    QVERIFY(mode.newGame(personAgainstAis("lost-cities", 5)));
    std::mt19937 random(3);
    int aiDraws = 0;
    for (int turn = 0; turn < 12; ++turn) {
      QVERIFY(waitForPerson(session));
      if (session.match().over()) break;
      const auto& state = dynamic_cast<const lostcities::LostCitiesState&>(session.match().state());
      const QString text = panelText(*mode.panel());
      const QString shown = namedIn(text, secretCards(state, 0));
      QVERIFY2(shown.isEmpty(), qPrintable(shown + " shown in: " + text));
      if (const EnvironmentMove* move = session.lastEnvironmentMove();
          move && move->before->chanceRecipient() == 1) {
        ++aiDraws;
        QVERIFY2(text.contains("draws a card from the deck (hidden)"), qPrintable(text));
        mode.setShowHidden(true);  // the researcher's switch shows the AI's draw
        const QString card =
            QString::fromStdString(lostcities::cardName(static_cast<int>(move->action)));
        const QString revealed = panelText(*mode.panel());
        QVERIFY2(revealed.contains(card), qPrintable(card + " not in " + revealed));
        mode.setShowHidden(false);
      }
      clickAMove(*mode.view(), session, random);
      if (QTest::currentTestFailed()) return;
    }
    QVERIFY(aiDraws >= 5);
  }

  // The AI's hand stays face down on the view and no hit area names its cards; the gains,
  // statuses, metrics and F read "hidden" while the game runs (Lost Cities' heuristic weighs the
  // hands and the deck: a hidden draw moved them by the card's worth). View -> Show hidden
  // information turns the AI's hand up and shows the numbers.
  void lostCitiesHandAndGainsStayHidden() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    PlayMode& mode = *window.playMode();
    GameSession& session = *mode.session();
    session.setDelay(0);
    QVERIFY(mode.newGame(personAgainstAis("lost-cities", 9)));
    std::mt19937 random(4);
    const QStringList hidden = {"hidden", "hidden"};
    for (int turn = 0; turn < 8; ++turn) {
      QVERIFY(waitForPerson(session));
      QVERIFY(!session.match().over());
      const auto& state = dynamic_cast<const lostcities::LostCitiesState&>(session.match().state());
      for (const GameView::HitArea& area : mode.view()->hitAreas())
        QVERIFY2(namedIn(area.label, secretCards(state, 0)).isEmpty(), qPrintable(area.label));
      const double faces = faceShareOnTop(*mode.view());
      QVERIFY2(faces < 0.1, qPrintable(QString("card faces on the AI's hand: %1").arg(faces)));
      QCOMPARE(panelColumn(*mode.panel(), "Gain", 1), hidden);
      QCOMPARE(panelColumn(*mode.panel(), "Status", 2), hidden);
      QCOMPARE(panelColumn(*mode.panel(), "Value", 1).count("hidden"),
               qsizetype(kBuiltInMetrics) + 1);
      mode.setShowHidden(true);
      const double shown = faceShareOnTop(*mode.view());
      QVERIFY2(shown > 0.15, qPrintable(QString("card faces on the AI's hand: %1").arg(shown)));
      QCOMPARE(panelColumn(*mode.panel(), "Gain", 1).count("hidden"), 0);
      QCOMPARE(panelColumn(*mode.panel(), "Value", 1).count("hidden"), 0);
      mode.setShowHidden(false);
      clickAMove(*mode.view(), session, random);
      if (QTest::currentTestFailed()) return;
    }
  }

  // A replay of a Lost Cities trace respects the switch: off, it is seen from seat 0 (whose hand
  // its view shows): seat 1's draws read as hidden in the round's text and the panel, the gains
  // too until the game is over; on, everything shows.
  void lostCitiesReplayRespectsTheSwitch() {
    QTemporaryDir dir;
    const QString batch = dir.filePath("lc.json");
    std::ofstream(batch.toStdString())
        << Json{{"format", "ddalab-batch/1"},
                {"seed", 3},
                {"experiments",
                 {{{"name", "lc"},
                   {"game", {{"id", "lost-cities"}}},
                   {"players", {{{"id", "random"}}, {{"id", "random"}}}},
                   {"environment", {{"id", "e-random"}}},
                   {"coefficients", {{"tension", 10}}},
                   {"iterations", 1}}}}};
    QProcess cli;
    cli.start(kCli, {"run", batch, "--out", dir.filePath("out"), "--trace", dir.filePath("trace"),
                     "--trace-detail", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    window.show();
    QVERIFY(window.openTrace(dir.filePath("trace/lc.trace.jsonl"), 0, true));
    PlayMode& mode = *window.playMode();
    auto* label = mode.findChild<QLabel*>("replayRound");
    const QString seat1 = "player 1 draws a card from the deck (hidden)";
    int hiddenDraws = 0;
    for (int r = 1; r < 30; ++r) {
      mode.showRound(r);
      const QString seen = label->text();
      QVERIFY2(!seen.contains("player 0 draws a card"), qPrintable(seen));
      QCOMPARE(panelColumn(*mode.panel(), "Gain", 1).count("hidden"), 2);
      mode.setShowHidden(true);
      const QString all = label->text();
      QCOMPARE(panelColumn(*mode.panel(), "Gain", 1).count("hidden"), 0);
      mode.setShowHidden(false);
      QCOMPARE(seen.count(seat1) + seen.count("deck gives"), all.count("deck gives"));
      hiddenDraws += seen.count(seat1);
    }
    QVERIFY(hiddenDraws >= 5);
  }

  // The live panel draws a HexaLines deal as the cell it deals (not a code); a die needs no
  // picture.
  void hexaLinesOutcomesDrawnAsCells() {
    const GameInfo& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "game");
    const auto state = info.make(validateParams(info.params, nullptr, "params"))->newGame(2);
    QVERIFY(state->isEnvironmentNode());
    std::vector<Outcome> outcomes;
    state->outcomes(outcomes);
    HexaLinesView view;
    const QImage cell = view.outcomeIcon(*state, outcomes.front().action, 32).toImage();
    QCOMPARE(cell.size(), QSize(32, 32));
    QSet<QRgb> colours;
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x) colours.insert(cell.pixel(x, y));
    QVERIFY(colours.size() > 3);  // the hexagon and its paths, not a blank square
    const GameInfo& ludo = findById<GameInfo>(gameRegistry(), "ludo", "game", "game");
    const auto roll = ludo.make(validateParams(ludo.params, nullptr, "params"))->newGame(2);
    LudoView dice;
    const QImage three = dice.outcomeIcon(*roll, 3, 32).toImage();
    QCOMPARE(three.size(), QSize(32, 32));
    QVERIFY(three != dice.outcomeIcon(*roll, 4, 32).toImage());  // the faces differ
    QVERIFY(dice.outcomeIcon(*state, 0, 32).isNull());           // not a Ludo state
  }

  // No board tells seats apart by colour alone (red and green look alike under deuteranopia):
  // Ludo's pieces carry their seat's letter (two players: R and G, four pieces each), HexaLines'
  // green lines are dashed and blue ones dotted in white, every Lost Cities card shows its
  // expedition's shape in its corner (a different shape per expedition), and the live panel's
  // players carry the board's letters.
  void boardsTellSeatsApartWithoutColour() {
    const std::unique_ptr<State> ludo = firstDecision("ludo");
    LudoView ludoView;
    ludoView.resize(600, 600);
    ludoView.showState(*ludo, {}, false, 0);
    RecordingDevice pieces(ludoView.size());
    ludoView.render(&pieces);
    QCOMPARE(pieces.texts().count("R"), 4);
    QCOMPARE(pieces.texts().count("G"), 4);
    QCOMPARE(ludoView.playerMark(1), QString("G"));  // two players sit at seats 0 and 2

    const std::unique_ptr<State> hexa = firstDecision("hexalines");
    HexaLinesView hexaView;
    hexaView.resize(600, 600);
    hexaView.showState(*hexa, {}, false, 0);
    RecordingDevice lines(hexaView.size());
    hexaView.render(&lines);
    QVERIFY2(lines.penStyles().contains(Qt::DashLine) && lines.penStyles().contains(Qt::DotLine),
             "green and blue sources are dashed and dotted");
    QCOMPARE(hexaView.playerMark(1), QString("G"));

    const std::unique_ptr<State> cards = firstDecision("lost-cities");
    std::vector<Action> legal;
    cards->legalActions(legal);
    LostCitiesView cardsView;
    cardsView.resize(900, 600);
    cardsView.showState(*cards, legal, true, cards->actor());
    const QImage board = cardsView.grab().toImage();
    std::map<int, QImage> cornerOf;  // per hand card: its shape's corner
    const std::vector<GameView::HitArea> hand = cardsView.hitAreas();
    QVERIFY(hand.size() >= 8);
    for (const GameView::HitArea& card : hand) {
      const QRect r = card.rect.toAlignedRect();
      const int side = static_cast<int>(std::min(r.width(), r.height()) * 0.3);
      const QImage corner = board.copy(r.right() - side - 3, r.bottom() - side - 3, side, side);
      int dark = 0;
      for (int y = 0; y < corner.height(); ++y)
        for (int x = 0; x < corner.width(); ++x) dark += qGray(corner.pixel(x, y)) < 0x70;
      QVERIFY2(dark > 3, qPrintable("no shape on " + card.label));
      cornerOf[static_cast<int>(cornerOf.size())] = corner;
    }
    // Cards of different expeditions differ in their corners (colours aside).
    QSet<QString> shapes;
    for (const auto& [i, corner] : cornerOf) {
      QString mask;
      for (int y = 0; y < corner.height(); ++y)
        for (int x = 0; x < corner.width(); ++x) mask += qGray(corner.pixel(x, y)) < 0x70 ? '#' : '.';
      shapes.insert(mask);
    }
    QVERIFY2(shapes.size() >= 2, "every expedition drew the same mark");
    if (const QByteArray shots = qgetenv("DDALAB_SCREENSHOTS"); !shots.isEmpty()) {
      board.save(QString::fromUtf8(shots) + "/gui-b-lost-cities-shapes.png");
      ludoView.grab().save(QString::fromUtf8(shots) + "/gui-b-ludo-letters.png");
      hexaView.grab().save(QString::fromUtf8(shots) + "/gui-b-hexalines-marks.png");
    }
  }

  // A click on something that is not a legal target changes nothing and says why.
  // In two-player Ludo the seats sit opposite (board seats 0 and 2): the panel shows each
  // player in the colour of its pieces on the board (seat 1 was blue in the panel, green on the
  // board), and Game over says who won and the ranking, in a study's heading too.
  void ludoPanelColoursAndGameOverSayTheBoardsTruth() {
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    PlayMode& mode = *window.playMode();
    GameSetup setup = PlayMode::defaultSetup("ludo", 5);
    setup.experiment["game"]["params"] = {{"players", 2}, {"max_rounds", 12}};
    Json& seats = setup.experiment["players"];
    seats.erase(seats.begin() + 2, seats.end());
    QString error;
    QVERIFY2(mode.newGame(setup, &error), qPrintable(error));
    QVERIFY(waitForPerson(*mode.session()));
    QTableWidget* players = nullptr;
    for (QTableWidget* t : mode.panel()->findChildren<QTableWidget*>())
      if (t->rowCount() == 2 && t->item(1, 0) && t->item(1, 0)->text().startsWith("seat 1"))
        players = t;
    QVERIFY(players);
    const QImage board = mode.view()->grab().toImage();
    for (int seat = 0; seat < 2; ++seat) {
      const QColor colour = mode.view()->playerColour(seat);
      QCOMPARE(players->item(seat, 0)->foreground().color(), colour.darker(130));
      int pixels = 0;  // the pieces are filled with exactly this colour
      for (int y = 0; y < board.height(); ++y)
        for (int x = 0; x < board.width(); ++x) pixels += board.pixelColor(x, y) == colour;
      QVERIFY2(pixels > 50, qPrintable(QString("seat %1's colour %2 on %3 pixels of the board")
                                           .arg(seat)
                                           .arg(colour.name())
                                           .arg(pixels)));
    }
    mode.session()->fastForward(1'000'000);
    QTRY_VERIFY(mode.session()->match().over());
    const State& end = mode.session()->match().state();
    const QString who = end.winner() >= 0 ? QString("seat %1 (you) wins").arg(end.winner())
                                          : QString("no winner");
    const auto says = [&](const QString& heading) {
      QVERIFY2(heading.contains(end.winner() == 1 ? QString("seat 1 wins") : who) &&
                   heading.contains("ranking by gain: seat"),
               qPrintable(heading));
    };
    says(mode.panel()->headingText());
    mode.setStudyLabel("Game 1 of 1");
    says(mode.panel()->headingText());
    mode.setStudyLabel({});
  }

  void illegalClickChangesNothing() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.newGame(personAgainstAis("ludo", 3)));
    QVERIFY(waitForPerson(*mode.session()));
    const std::string before = mode.session()->match().state().toString();
    QSignalSpy refused(mode.view(), &GameView::refused);
    QTest::mouseClick(mode.view(), Qt::LeftButton, {}, QPoint(3, 3));  // the board's corner
    QCOMPARE(refused.count(), 1);
    QVERIFY(!refused.front().front().toString().isEmpty());
    QCOMPARE(mode.session()->match().state().toString(), before);
    QVERIFY(mode.session()->personToMove());
  }

  // A rotation by clicks: the cell, again (one sixth further), then Rotate; a right click
  // confirms too; Esc cancels. Each yields the matching rotate action or none.
  void hexaLinesRotationByClicks() {
    const auto state = hexaLinesWithOwnBend();
    const int field = state->frontField(0);
    std::vector<Action> legal;
    state->legalActions(legal);
    HexaLinesView view;
    view.resize(700, 800);
    view.show();
    std::vector<Action> chosen;
    connect(&view, &GameView::actionChosen, this, [&](Action a) { chosen.push_back(a); });
    QSignalSpy refused(&view, &GameView::refused);
    const auto rotation = [&](int sixths) {
      return QString::fromStdString(state->actionToString(state->rotateAction(field, sixths)));
    };

    view.showState(*state, legal, true, 0);
    const QPoint cell = view.fieldCentre(field).toPoint();
    QCOMPARE(areaStartingWith(view, "choose").rect.center().toPoint(), cell);
    QTest::mouseClick(&view, Qt::LeftButton, {}, cell);
    QCOMPARE(areaStartingWith(view, "rotate").label, rotation(1));
    QTest::mouseClick(&view, Qt::LeftButton, {}, cell);
    const GameView::HitArea confirm = areaStartingWith(view, "rotate");
    QCOMPARE(confirm.label, rotation(2));
    QVERIFY(chosen.empty());
    QTest::mouseClick(&view, Qt::LeftButton, {}, confirm.rect.center().toPoint());
    QCOMPARE(chosen, std::vector<Action>{state->rotateAction(field, 2)});

    view.showState(*state, legal, true, 0);
    QTest::mouseClick(&view, Qt::LeftButton, {}, cell);
    QTest::mouseClick(&view, Qt::RightButton, {}, cell);
    QCOMPARE(chosen.back(), state->rotateAction(field, 1));

    view.showState(*state, legal, true, 0);
    QTest::mouseClick(&view, Qt::LeftButton, {}, cell);
    QTest::keyClick(&view, Qt::Key_Escape);
    QVERIFY(areaStartingWith(view, "rotate").label.isEmpty());
    QCOMPARE(chosen.size(), size_t{2});
    QCOMPARE(refused.back().front().toString(), QString("rotation cancelled"));
  }

  // In a game: a click on an opponent's cell changes nothing and says whose cell it is.
  void hexaLinesOpponentCellRefused() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    GameSession& session = *mode.session();
    session.setDelay(0);
    QVERIFY(mode.newGame(personAgainstAis("hexalines", 1)));
    int opponentCell = -1;
    for (int turn = 0; turn < 30 && opponentCell < 0; ++turn) {
      QVERIFY(waitForPerson(session));
      QVERIFY2(!session.match().over(), session.match().state().toString().c_str());
      const auto& state = dynamic_cast<const hexalines::HexaLinesState&>(session.match().state());
      for (int f = 0; f < state.fields() && opponentCell < 0; ++f)
        if (state.cell(f).owner != hexalines::kNobody && state.cell(f).owner != state.player())
          opponentCell = f;
      if (opponentCell < 0)  // add the cell somewhere and wait for the opponents' cells
        QTest::mouseClick(mode.view(), Qt::LeftButton, {},
                          areaStartingWith(*mode.view(), "add").rect.center().toPoint());
    }
    QVERIFY(opponentCell >= 0);
    const std::string before = session.match().state().toString();
    const auto& state = dynamic_cast<const hexalines::HexaLinesState&>(session.match().state());
    const QString owner = state.cell(opponentCell).owner == 1 ? "green" : "blue";
    QSignalSpy refused(mode.view(), &GameView::refused);
    auto& view = dynamic_cast<HexaLinesView&>(*mode.view());
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.fieldCentre(opponentCell).toPoint());
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.front().front().toString(),
             QString("that cell is %1's: you may rotate only your own or grey cells").arg(owner));
    QCOMPARE(session.match().state().toString(), before);
    QVERIFY(session.personToMove());
    QVERIFY(areaStartingWith(view, "rotate").label.isEmpty());  // no rotation started
  }

  // A replay rebuilds every round's recorded gains and statuses; F breakdowns add up.
  // Open trace lists the trace's games to pick from; the arrow keys step the replay and Play
  // runs it to the end, where the label says who won.
  void replayPickedAndPlayedByKeys() {
    QTemporaryDir dir;
    QProcess cli;
    cli.start(kCli, {"run", QString(DDALAB_SOURCE_DIR) + "/experiments/quick.json", "--out",
                     dir.filePath("out"), "--trace", dir.filePath("trace"), "-n", "3", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    const QString trace = dir.filePath("trace/ludo-4hc__e-random.trace.jsonl");
    TracePicker picker(trace);
    QCOMPARE(picker.table()->rowCount(), 3);
    picker.table()->selectRow(2);
    QCOMPARE(picker.chosen(), 2);
    QCOMPARE(picker.table()->item(2, 0)->text(), QString("2"));  // the iteration
    QVERIFY(picker.table()->item(2, 2)->text().startsWith("seat") ||
            picker.table()->item(2, 2)->text() == "none");
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    // A plain trace needs its batch file: the game is set up from quick.json here.
    const Json line = [&] {
      std::ifstream in(trace.toStdString());
      std::string text;
      for (int i = 0; i <= 2; ++i) std::getline(in, text);
      return Json::parse(text);
    }();
    const Batch batch = loadBatch(std::string(DDALAB_SOURCE_DIR) + "/experiments/quick.json");
    auto replay = std::make_unique<Replay>(line, *batch.experiments[1].game,
                                           batch.experiments[1].coefficients);
    const int rounds = replay->rounds();
    PlayMode& mode = *window.playMode();
    window.showGameMode();
    mode.openReplay(std::move(replay), "ludo");
    QCOMPARE(mode.round(), 0);
    QTest::keyClick(&window, Qt::Key_Right);
    QTest::keyClick(&window, Qt::Key_Right);
    QCOMPARE(mode.round(), 2);
    QTest::keyClick(&window, Qt::Key_Left);
    QCOMPARE(mode.round(), 1);
    QTest::keyClick(&window, Qt::Key_End);
    QCOMPARE(mode.round(), rounds);
    auto* label = mode.findChild<QLabel*>("replayRound");
    QVERIFY(label);
    QVERIFY2(label->text().contains("game over"), qPrintable(label->text()));
    QTest::keyClick(&window, Qt::Key_Home);
    QCOMPARE(mode.round(), 0);
    mode.findChild<QSlider*>()->setValue(0);  // the pace: as fast as it goes
    QTest::keyClick(&window, Qt::Key_Space);  // Play
    QTRY_COMPARE_WITH_TIMEOUT(mode.round(), rounds, 60'000);
  }

  // A replay at 1024 x 700 keeps the window's width at every round: the last one's status ("game
  // over … ranking by gain …") wraps instead of widening the window (984 grew to 1,576 px and the
  // live panel went off the screen).
  void replayKeepsTheWindowsWidth() {
    QTemporaryDir dir;
    QProcess cli;
    cli.start(kCli, {"run", QString(DDALAB_SOURCE_DIR) + "/experiments/quick.json", "--out",
                     dir.filePath("out"), "--trace", dir.filePath("trace"), "--trace-detail", "-n",
                     "1", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openTrace(dir.filePath("trace/ludo-4hc__e-hillclimber.trace.jsonl"), 0, true));
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.replaying());
    mode.showRound(1'000'000);  // the last round
    auto* status = mode.findChild<QLabel*>("replayRound");
    QVERIFY(status && status->text().contains("game over"));
    QVERIFY2(window.minimumSizeHint().width() <= 1024,
             qPrintable(QString::number(window.minimumSizeHint().width())));
    QCOMPARE(window.width(), 1024);
    QVERIFY(mode.panel()->geometry().right() <= mode.width());
    QVERIFY(status->geometry().right() <= mode.width());
    if (const QByteArray shots = qgetenv("DDALAB_SCREENSHOTS"); !shots.isEmpty())
      window.grab().save(QString::fromUtf8(shots) + "/gui-b-replay-last-round.png");
  }

  void replayReproducesTheRecordedGame() {
    QTemporaryDir dir;
    QProcess cli;
    cli.start(kCli, {"run", QString(DDALAB_SOURCE_DIR) + "/experiments/quick.json", "--out",
                     dir.filePath("out"), "--trace", dir.filePath("trace"), "--trace-detail", "-n",
                     "2", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    window.show();
    const QString trace = dir.filePath("trace/ludo-4hc__e-hillclimber.trace.jsonl");
    QVERIFY(window.openTrace(trace, 1, true));
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.replaying());
    std::ifstream in(trace.toStdString());
    std::string text;
    std::getline(in, text);
    std::getline(in, text);
    const Json line = Json::parse(text);
    const Replay replay(line, *gameOfTrace(line), coefficientsOfTrace(line));
    QCOMPARE(replay.rounds(), int(line.at("rounds").size()));
    int decisions = 0;
    for (int r = 0; r <= replay.rounds(); ++r) {
      const State& state = replay.stateAt(r);
      const Gains gains = gainsOf(state);
      Gains statuses{};
      computeStatuses(std::span(gains.data(), 4), std::span(statuses.data(), 4));
      const auto recordedGains = replay.recordedGains(r);
      const auto recordedStatuses = replay.recordedStatuses(r);
      for (size_t p = 0; p < 4; ++p) {
        QCOMPARE(gains[p], recordedGains[p]);
        QCOMPARE(statuses[p], recordedStatuses[p]);
      }
      if (const auto d = replay.decisionAt(r)) {
        for (const auto& row : d->rows) {
          double sum = 0;
          for (const ObjectiveTerm& term : row.terms) sum += term.summed ? term.value : 0;
          QVERIFY(row.fun);
          QVERIFY(std::abs(sum - *row.fun) <= 1e-9 * std::max(1.0, std::abs(*row.fun)));
        }
        ++decisions;
      }
      mode.showRound(r);  // the view and the panel follow the replay
      QCOMPARE(mode.round(), r);
    }
    QVERIFY(decisions > 10);
    QTableWidget* table = mode.panel()->decisionTable();
    QVERIFY(table->rowCount() == 6);  // the die's six faces, each drawn
    for (int r = 0; r < 6; ++r) QVERIFY(!table->item(r, 0)->icon().isNull());
  }

  // A HexaLines replay draws every dealt cell in the decision table, as the live panel does.
  void hexaLinesReplayDrawsTheDeals() {
    QTemporaryDir dir;
    const Json batch = {
        {"format", "ddalab-batch/1"},
        {"seed", 7},
        {"experiments",
         {{{"name", "hl"},
           {"game", {{"id", "hexalines"}}},
           {"players", {{{"id", "random"}}, {{"id", "random"}}, {{"id", "random"}}}},
           {"environment", {{"id", "e-random"}}},
           {"iterations", 1}}}}};
    std::ofstream(dir.filePath("hl.json").toStdString()) << batch.dump();
    QProcess cli;
    cli.start(kCli, {"run", dir.filePath("hl.json"), "--out", dir.filePath("out"), "--trace",
                     dir.filePath("trace"), "--trace-detail", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    window.show();
    QVERIFY(window.openTrace(dir.filePath("trace/hl.trace.jsonl"), 0, true));
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.replaying());
    mode.showRound(1);
    QTableWidget* table = mode.panel()->decisionTable();
    QVERIFY(table->rowCount() > 1);
    for (int r = 0; r < table->rowCount(); ++r) QVERIFY(!table->item(r, 0)->icon().isNull());
  }

  // The AI decides on a worker thread: the event loop turns and clicks are handled meanwhile.
  void windowAnswersWhileAnAiThinks() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    GameSetup setup = PlayMode::defaultSetup("ludo", 5);
    setup.experiment["players"][0] = {{"id", "mcts"}, {"params", {{"iterations", 2'000'000}}}};
    mode.session()->setDelay(0);
    QVERIFY(mode.newGame(setup));
    // The environment rolls first; then MCTS decides for seat 0 on the worker thread.
    QTRY_VERIFY_WITH_TIMEOUT(mode.session()->thinking() && mode.session()->thinker() == 0, kWaitMs);
    QElapsedTimer clock;
    clock.start();
    qint64 worst = 0, last = 0;
    int turns = 0;
    while (clock.elapsed() < 800 && mode.session()->thinking()) {
      QTest::qWait(10);
      worst = std::max(worst, clock.elapsed() - last);
      last = clock.elapsed();
      ++turns;
    }
    QVERIFY2(mode.session()->thinking(), "the MCTS decision should still run");
    QVERIFY(turns > 20);
    QVERIFY2(worst < 300, "the event loop stalled while the AI thought");
    window.showBatchMode();  // a person clicks around meanwhile
    window.showGameMode();
    QVERIFY(mode.session()->thinking());
    qInfo("longest event-loop gap while MCTS thought: %lld ms", worst);
  }

  // A researcher chooses an objective in the settings dialog (its kind, a metric's row of its
  // table) and sees it, its value so far and every outcome's terms in the live panel.
  void objectiveChosenInTheDialogShowsInThePanel() {
    GameSetup setup = PlayMode::defaultSetup("ludo", 3);
    setup.experiment["players"][0] = {{"id", "random"}};
    setup.experiment["environment"] = {{"id", "e-hillclimber"}, {"params", {{"random_prob", 0}}}};
    ExperimentDialog dialog;
    dialog.setGameMode(true);
    dialog.setExperiment(setup.experiment);
    auto* kind = dialog.findChild<QComboBox*>("objective-kind");
    auto* table = dialog.findChild<QTableWidget*>("objective-table");
    QVERIFY(kind && table);
    QCOMPARE(kind->currentText(), QString("weighted-sum"));
    QVERIFY(!dialog.experiment().contains("objective"));  // OK without changes: none written
    kind->setCurrentIndex(kind->findText("target"));
    QCOMPARE(table->rowCount(), 1);  // a row to fill in
    qobject_cast<QComboBox*>(table->cellWidget(0, 0))->setCurrentText("lead_changes");
    // OK before the target is entered: refused with the message a file would get.
    QVERIFY2(dialog.problem().contains("objective.targets.lead_changes"),
             qPrintable(dialog.problem()));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    table->item(0, 1)->setText("0.2");
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    const Json chosen = dialog.experiment();
    QVERIFY(chosen.at("objective") ==
            (Json{{"kind", "target"}, {"targets", {{"lead_changes", 0.2}}}}));
    dialog.setExperiment(chosen);  // reopened, it shows the same
    QVERIFY(dialog.experiment() == chosen);
    // Careless clicks change nothing they should not: Up and Down on the only row.
    for (const QString button : {"Up", "Down"}) click(&dialog, button);
    QVERIFY(dialog.experiment() == chosen);
    // A lexicographic order is reordered by Down: the steps follow the rows.
    kind->setCurrentIndex(kind->findText("lexicographic"));
    qobject_cast<QComboBox*>(table->cellWidget(0, 0))->setCurrentText("believability");
    table->item(0, 1)->setText("1");
    click(&dialog, "Add metric");
    qobject_cast<QComboBox*>(table->cellWidget(1, 0))->setCurrentText("lead_changes");
    table->setCurrentCell(0, 0);
    click(&dialog, "Down");
    const Json order = dialog.experiment().at("objective").at("order");
    QVERIFY2(order == (Json{{{"metric", "lead_changes"}},
                            {{"metric", "believability"}, {"tolerance", 1}}}),
             order.dump().c_str());
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    click(&dialog, "Remove");  // the selected row (believability, now second)
    QCOMPARE(table->rowCount(), 1);

    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    mode.session()->setDelay(0);
    QVERIFY(mode.newGame({chosen, 3}));
    QVERIFY(waitForPerson(*mode.session()));  // no person: the game plays to its end
    const QString text = panelText(*mode.panel());
    QVERIFY2(text.contains("Objective: <b>target: lead_changes 0.2/round</b> — its value so far"),
             qPrintable(text));
    QTableWidget* outcomes = mode.panel()->decisionTable();
    QCOMPARE(outcomes->rowCount(), 6);
    for (int r = 0; r < outcomes->rowCount(); ++r) {
      const QString tip = outcomes->item(r, 0)->toolTip();
      QVERIFY2(tip.startsWith("the target objective = ") && tip.contains("\nlead_changes: -"),
               qPrintable(tip));
    }
  }
};

QTEST_MAIN(GameModeTest)
#include "test_game_mode.moc"
