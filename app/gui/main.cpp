// ddalab-gui: the desktop application (batch mode). With --export-charts, --screenshot or
// --probe-latency it works without a person (and, for the first two, without a display).
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QStandardPaths>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/headless.h"
#include "app/gui/main_window.h"
#include "app/gui/views/view_plugin.h"
#include "core/params.h"
#include "experiments/plugins.h"

namespace {

// The offscreen platform for the modes that need no display (unless one was chosen).
void chooseHeadlessPlatform(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--export-charts") || !std::strcmp(argv[i], "--screenshot"))
      if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
}

QtMessageHandler defaultHandler = nullptr;

// Drops the two notes Qt prints for every chart a headless run draws (the offscreen platform
// cannot size windows; no per-user runtime folder as root): harmless, and they buried the
// output. Every other message goes through.
void quietHeadlessNotes(QtMsgType type, const QMessageLogContext& context, const QString& text) {
  if (text.contains("does not support propagateSizeHints") ||
      text.startsWith("QStandardPaths: XDG_RUNTIME_DIR not set"))
    return;
  defaultHandler(type, context, text);
}

// `text`, given to `option`, as a whole number `low` .. `high`; none, having said why, when it is
// anything else ("abc", "-1", "3.5" were taken as 0 or cut).
std::optional<qulonglong> parseWholeText(const QString& option, const QString& given,
                                         qulonglong low, qulonglong high) {
  const QString text = given.trimmed();
  bool ok = !text.startsWith('-') && !text.startsWith('+');
  const qulonglong value = ok ? text.toULongLong(&ok, 10) : 0;
  if (ok && value >= low && value <= high) return value;
  std::fprintf(stderr, "error: --%s expects a whole number %llu .. %llu, got '%s'\n",
               qPrintable(option), low, high, qPrintable(given));
  return std::nullopt;
}

// The whole number `option` was given (`low` .. `high`), as parseWholeText.
std::optional<qulonglong> parseWhole(const QCommandLineParser& parser, const QString& option,
                                     qulonglong low, qulonglong high) {
  return parseWholeText(option, parser.value(option), low, high);
}

// --select's rows ("0,1": whole numbers); none, having said why, when one is anything else
// ("abc" once selected row 0).
std::optional<std::vector<int>> parseRows(const QCommandLineParser& parser) {
  std::vector<int> rows;
  for (const QString& row : parser.value("select").split(',', Qt::SkipEmptyParts)) {
    const auto value = parseWholeText("select", row, 0, std::numeric_limits<int>::max());
    if (!value) return std::nullopt;
    rows.push_back(static_cast<int>(*value));
  }
  return rows;
}

// --seconds as a number of seconds above 0 (at most a day); none, having said why, when it is
// anything else ("abc" once read as 0).
std::optional<double> parseSeconds(const QCommandLineParser& parser) {
  bool ok = false;
  const double value = parser.value("seconds").trimmed().toDouble(&ok);
  if (ok && std::isfinite(value) && value > 0 && value <= 86400) return value;
  std::fprintf(stderr,
               "error: --seconds expects a number of seconds above 0 (at most 86400), got '%s'\n",
               qPrintable(parser.value("seconds")));
  return std::nullopt;
}

QSize parseSize(const QString& text) {
  const QStringList parts = text.toLower().split('x');
  if (parts.size() != 2) return {};
  return {parts[0].toInt(), parts[1].toInt()};
}

// Takes every "--plugin FILE" / "--plugin=FILE" out of argv (before Qt reads it); returns the
// files. A --plugin without a file is left for the parser to refuse.
std::vector<std::string> takePluginOptions(int& argc, char** argv) {
  std::vector<std::string> files;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--plugin") && i + 1 < argc)
      files.push_back(argv[++i]);
    else if (!std::strncmp(argv[i], "--plugin=", 9))
      files.push_back(argv[i] + 9);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return files;
}

// The command line's options, in the order --help lists them.
struct GuiOptions {
  const QCommandLineOption exportCharts{
      "export-charts", "write the charts of a results folder (no display needed)", "RESULTS_DIR"};
  const QCommandLineOption out{"out", "folder for --export-charts", "DIR", "charts"};
  const QCommandLineOption svg{"svg", "with --export-charts: SVG files too"};
  const QCommandLineOption sweepColumn{
      "sweep-column",
      "with --export-charts of a sweep: a column of sweep.csv to chart against each axis and "
      "over two (repeatable; default score9)",
      "KEY"};
  const QCommandLineOption shot{"screenshot", "save a view as PNG and exit", "FILE"};
  const QCommandLineOption view{
      "view",
      "with --screenshot: " + ddalab::gui::screenshotViews().join(", ") +
          ", or any other game id, plug-in games included (--plugin, DDALAB_PLUGIN_PATH); "
          "settings needs --open",
      "VIEW", "queue"};
  const QCommandLineOption seed{"seed", "with --screenshot of a game: its seed", "S", "1"};
  const QCommandLineOption rounds{
      "rounds",
      "with --screenshot of a game: rounds the AIs play for every seat first; the game then "
      "plays on to the person's turn, so the round shown may be later than N. Of a replay: "
      "the round shown",
      "N", "12"};
  const QCommandLineOption open{
      "open", "with --screenshot: a batch file, results folder or (replay) trace file", "PATH"};
  const QCommandLineOption select{"select", "with --screenshot: rows to select, e.g. 0,1", "ROWS"};
  const QCommandLineOption session{
      "session",
      "the folder where the window keeps its queue and games across restarts (default: the "
      "user's data folder)",
      "DIR"};
  const QCommandLineOption size{"size", "image size for --export-charts / --screenshot", "WxH",
                                "1400x900"};
  const QCommandLineOption probe{"probe-latency",
                                 "run a batch on every core and measure the GUI thread's "
                                 "timer lateness",
                                 "BATCH"};
  // Documented only: main() takes the --plugin options out first (Qt's own -plugin would load
  // a Qt plug-in by that name).
  const QCommandLineOption plugin{
      "plugin", "load a plug-in (games, players) first; repeatable (DDALAB_PLUGIN_PATH too)",
      "FILE"};
  const QCommandLineOption seconds{"seconds", "with --probe-latency: stop after this long", "S",
                                   "10"};
};

// Describes the application and its options to `parser`.
void describeOptions(QCommandLineParser& parser, const GuiOptions& o) {
  parser.setApplicationDescription(
      "ddalab-gui: queue DDA experiments, watch their fun metrics "
      "live, compare them in histograms and charts");
  parser.addHelpOption();
  parser.addPositionalArgument("file", "a batch file or results folder to open", "[FILE]");
  parser.addOptions({o.exportCharts, o.out, o.svg, o.sweepColumn, o.shot, o.view, o.open, o.select,
                     o.seed, o.rounds, o.session, o.size, o.probe, o.seconds, o.plugin});
}

// The numbers the headless modes take, each checked.
struct HeadlessNumbers {
  qulonglong seed;
  int rounds;
  std::vector<int> rows;
  double seconds;
  QSize imageSize;
};

// The numbers given; none, having said on stderr which is wrong.
std::optional<HeadlessNumbers> checkNumbers(const QCommandLineParser& parser, const GuiOptions& o) {
  const std::optional<qulonglong> seedValue =
      parseWhole(parser, "seed", 0, std::numeric_limits<uint64_t>::max());
  const std::optional<qulonglong> roundsValue =
      parseWhole(parser, "rounds", 0, std::numeric_limits<int>::max());
  const std::optional<std::vector<int>> rows = parseRows(parser);
  const std::optional<double> secondsValue = parseSeconds(parser);
  if (!seedValue || !roundsValue || !rows || !secondsValue) return std::nullopt;
  const QSize imageSize = parseSize(parser.value(o.size));
  if (!imageSize.isValid() || imageSize.isEmpty()) {
    std::fprintf(stderr, "error: --size expects WIDTHxHEIGHT, e.g. 1400x900\n");
    return std::nullopt;
  }
  return HeadlessNumbers{*seedValue, static_cast<int>(*roundsValue), *rows, *secondsValue,
                         imageSize};
}

// Loads the plug-ins and their view libraries, from DDALAB_PLUGIN_PATH and --plugin.
void loadStartupPlugins(const std::vector<std::string>& plugins) {
  ddalab::loadPlugins({});
  if (const char* path = std::getenv("DDALAB_PLUGIN_PATH"))
    for (const auto& file : ddalab::pluginFilesOnPath(path))
      if (ddalab::isViewLibrary(file)) ddalab::gui::loadViewPlugin(file);
  for (const std::string& file : plugins)
    if (ddalab::isViewLibrary(file))
      ddalab::gui::loadViewPlugin(file);
    else
      ddalab::loadPlugin(file);
}

// Runs the mode without a person that was asked for (charts, a screenshot, the latency probe);
// its exit code, none when no such mode was asked for. Throws what the mode throws.
std::optional<int> runHeadless(const QCommandLineParser& parser, const GuiOptions& o,
                               const HeadlessNumbers& numbers) {
  if (parser.isSet(o.exportCharts)) {
    const QStringList columns =
        parser.isSet(o.sweepColumn) ? parser.values(o.sweepColumn) : QStringList{"score9"};
    const QStringList files =
        ddalab::gui::exportCharts(parser.value(o.exportCharts), parser.value(o.out),
                                  numbers.imageSize, parser.isSet(o.svg), columns);
    for (const QString& f : files) std::printf("%s\n", f.toLocal8Bit().constData());
    return 0;
  }
  if (parser.isSet(o.shot)) {
    ddalab::gui::screenshot(parser.value(o.shot), parser.value(o.view), parser.value(o.open),
                            numbers.imageSize, numbers.rows, numbers.seed, numbers.rounds);
    return 0;
  }
  if (parser.isSet(o.probe))
    return ddalab::gui::probeLatency(parser.value(o.probe), numbers.seconds);
  return std::nullopt;
}

// Shows the window on its session (and the file given, if any) until the person quits.
int runWindow(QApplication& app, const QCommandLineParser& parser, const GuiOptions& o) {
  ddalab::gui::MainWindow window;
  window.loadRememberedPlugins();  // before the session: its batch may use their games
  const QString sessionFolder =
      parser.isSet(o.session)
          ? parser.value(o.session)
          : QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/session";
  window.batch()->openSession(sessionFolder);
  // Games played in the game mode are kept beside the session's queue.
  window.setPlayedGamesFolder(std::filesystem::path(sessionFolder.toStdString()) / "played");
  window.show();
  if (!parser.positionalArguments().isEmpty()) {
    const QString target = parser.positionalArguments().front();
    if (QFileInfo(target).isDir())
      window.batch()->openResults(target);
    else
      window.batch()->openBatch(target);
  }
  return app.exec();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> plugins = takePluginOptions(argc, argv);
  chooseHeadlessPlatform(argc, argv);
  defaultHandler = qInstallMessageHandler(quietHeadlessNotes);
  QApplication app(argc, argv);
  QApplication::setApplicationName("ddalab-gui");
  QApplication::setOrganizationName("ddalab");

  QCommandLineParser parser;
  const GuiOptions options;
  describeOptions(parser, options);
  // Bad usage exits 2 with the reason, as the CLI does (QCommandLineParser::process exits 1).
  if (!parser.parse(QApplication::arguments())) {
    std::fprintf(stderr, "error: %s (see --help)\n", qPrintable(parser.errorText()));
    return 2;
  }
  if (parser.isSet("help")) parser.showHelp(0);
  const std::optional<HeadlessNumbers> numbers = checkNumbers(parser, options);
  if (!numbers) return 2;
  try {
    loadStartupPlugins(plugins);
    if (const std::optional<int> code = runHeadless(parser, options, *numbers)) return *code;
  } catch (const ddalab::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {  // a file that cannot be written
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return runWindow(app, parser, options);
}
