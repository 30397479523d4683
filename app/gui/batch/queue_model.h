#pragma once
// The batch queue (thesis figure 21): one row per experiment with its settings as a batch file
// holds them and its results so far, shown as the thesis's columns with a Mean / Std / Min / Max
// / CI selector. Results are summarized by the library's SummaryBuilder as games arrive.
#include <QAbstractTableModel>
#include <array>
#include <optional>
#include <span>
#include <vector>

#include "experiments/batch.h"
#include "results/aggregate.h"

namespace ddalab::gui {

enum class Statistic { Mean, Std, Min, Max, CI };

// One experiment of the queue.
struct QueueEntry {
  Json experiment;  // as in a batch file's "experiments"
  ExperimentLabel label;
  std::optional<SummaryBuilder> results;                // none until a game arrives
  std::array<std::vector<double>, kMaxMetrics> values;  // each finished game's metrics
  size_t metricsTracked = 0;  // the metrics of the catalog when its first game arrived
  size_t games() const { return results ? results->games() : 0; }
};

class QueueModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // The fixed columns; every metric of the catalog follows them, in catalog order
  // (columnMetric, metricColumn).
  enum Column { Name, Game, Environment, Iterations, WinRatio, BalanceP, FirstMetric };
  explicit QueueModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  void setStatistic(Statistic statistic);
  // A plug-in added metrics: their columns follow (rows with games show "n/a" in them).
  void catalogChanged();
  Statistic statistic() const { return statistic_; }

  // Editing (throws InputError for an experiment file validation would refuse).
  void append(const Json& experiment);
  // Replaces a row's settings; its finished games stay when they all still count (see
  // gamesKept), else the row starts without games.
  void replace(int row, const Json& experiment);
  void remove(int row);
  void duplicate(int row);  // a copy under a new name, right below
  void clear();
  // The experiment as the queue holds it: validated, every default written out.
  static Json canonical(const Json& experiment);
  // How many of the row's finished games still count when its settings become `experiment`:
  // all of them when only the name, the comparison or the number of games change (game i is
  // the same game), up to the new number of games; none when anything else changes.
  size_t gamesKept(int row, const Json& experiment) const;
  // The whole queue with its results, to go back to (Undo).
  std::vector<QueueEntry> snapshot() const { return entries_; }
  void restore(std::vector<QueueEntry> entries);

  // The queue as a batch: `seed` is the batch's master seed. Throws InputError when invalid.
  Batch batch(uint64_t seed) const;
  Json document(uint64_t seed) const;
  // Replaces the queue by the experiments of `batch`.
  void load(const Batch& batch);

  // Results.
  void clearResults();
  void clearResults(int row);
  // Finished games over every row; planned games over every row; whether every row has all
  // its games.
  size_t games() const;
  size_t plannedGames() const;
  bool complete() const;
  void addGames(int row, std::span<const GameRecord> games);
  const QueueEntry& entry(int row) const { return entries_.at(static_cast<size_t>(row)); }
  std::optional<ExperimentSummary> summary(int row) const;
  // The summaries of the rows with results, in queue order.
  std::vector<ExperimentSummary> summaries() const;
  // A name no row has yet, starting from `base`.
  std::string freeName(const std::string& base) const;

 private:
  static QueueEntry makeEntry(const Json& experiment);
  void checkNameFree(const std::string& name, int except) const;
  QVariant cell(const QueueEntry& entry, int column) const;

  std::vector<QueueEntry> entries_;
  Statistic statistic_ = Statistic::Mean;
};

// A p-value as the CLI prints it (4 decimals, "< 0.0001" below), "–" for NaN.
QString pText(double p);

// The metric a queue column shows (none for the columns that are not per-game metrics).
std::optional<Metric> columnMetric(int column);
// The column of `metric`.
int metricColumn(Metric metric);

}  // namespace ddalab::gui
