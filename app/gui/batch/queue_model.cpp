#include "app/gui/batch/queue_model.h"

#include <QColor>
#include <QFont>
#include <cmath>

#include "experiments/runner.h"

namespace ddalab::gui {

namespace {

constexpr const char* kHeaders[] = {"Experiment", "Game",      "Environment",
                                    "Games",      "Win ratio", "Balance p"};

QString number(double value) {
  return QString::number(value, 'f', std::abs(value) >= 1000 ? 1 : 3);
}

QString statText(const Stats& s, Statistic statistic) {
  // Unknown: a metric the folder's games file has no column for (an earlier ddalab's).
  if (std::isnan(s.mean)) return "–";
  switch (statistic) {
    case Statistic::Mean:
      return number(s.mean);
    case Statistic::Std:
      return number(s.std);
    case Statistic::Min:
      return number(s.min);
    case Statistic::Max:
      return number(s.max);
    case Statistic::CI:
      // Two significant digits: a small interval (fairness) must not read "± 0.000".
      return number(s.mean) + " ± " + QString::number((s.ci95High - s.ci95Low) / 2, 'g', 2);
  }
  return {};
}

}  // namespace

QString pText(double p) {
  if (std::isnan(p)) return "–";
  return p < 0.0001 ? QString("< 0.0001") : QString::number(p, 'f', 4);
}

std::optional<Metric> columnMetric(int column) {
  const int k = column - QueueModel::FirstMetric;
  if (k < 0 || k >= static_cast<int>(allMetrics().size())) return std::nullopt;
  return static_cast<Metric>(k);
}

int metricColumn(Metric metric) {
  return QueueModel::FirstMetric + static_cast<int>(metric);
}

QueueModel::QueueModel(QObject* parent) : QAbstractTableModel(parent) {}

int QueueModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int QueueModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : FirstMetric + static_cast<int>(allMetrics().size());
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  const auto metric = columnMetric(section);
  if (role == Qt::DisplayRole)
    return metric ? QString::fromStdString(metricInfo(*metric).label) : QString(kHeaders[section]);
  if (role == Qt::ToolTipRole) {
    if (metric) return QString::fromStdString(metricInfo(*metric).description);
    if (section == WinRatio)
      return "std over players of their win rates (lower: more balanced); with Mean ± 95 % CI, "
             "its bootstrap interval once the row is complete";
    if (section == BalanceP)
      return "p of the chi-square test that every seat is equally likely to win (below 0.05: "
             "the seats' chances differ)";
    if (section == Iterations) return "games finished / planned";
  }
  return {};
}

QVariant QueueModel::cell(const QueueEntry& entry, int column) const {
  switch (column) {
    case Name:
      return QString::fromStdString(entry.label.name);
    case Game:
      return QString::fromStdString(entry.label.game);
    case Environment:
      return QString::fromStdString(entry.label.environment);
    case Iterations:
      return QString("%1 / %2").arg(entry.games()).arg(entry.label.plannedIterations);
  }
  if (!entry.results || entry.games() == 0) return QString("–");
  // The bootstrap interval of win_ratio costs 1,000 resamples: only for complete rows, once.
  const bool interval = statistic_ == Statistic::CI &&
                        entry.games() == static_cast<size_t>(entry.label.plannedIterations);
  const ExperimentSummary s = entry.results->summary(interval);
  if (column == WinRatio)
    return statistic_ != Statistic::CI ? number(s.winRatio)
           : interval                  ? number(s.winRatio) + " (" + number(s.winRatioLow) + "–" +
                            number(s.winRatioHigh) + ")"
                      : number(s.winRatio) + " (…)";
  if (column == BalanceP) return std::isnan(s.balance.p) ? QString("–") : pText(s.balance.p);
  const auto k = static_cast<size_t>(*columnMetric(column));
  if (k >= entry.metricsTracked) return QString("n/a");  // a plug-in's metric loaded since
  return statText(s.metrics[k], statistic_);
}

QVariant QueueModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const QueueEntry& entry = entries_[static_cast<size_t>(index.row())];
  if (role == Qt::DisplayRole) return cell(entry, index.column());
  if (role == Qt::TextAlignmentRole)
    return index.column() >= Iterations ? int(Qt::AlignRight | Qt::AlignVCenter)
                                        : int(Qt::AlignLeft | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == Name)
    return QString::fromStdString(entry.experiment.dump(2));
  return {};
}

void QueueModel::setStatistic(Statistic statistic) {
  statistic_ = statistic;
  if (!entries_.empty())
    emit dataChanged(index(0, WinRatio), index(rowCount() - 1, columnCount() - 1));
}

QueueEntry QueueModel::makeEntry(const Json& experiment) {
  const Batch batch = parseExperiment(experiment, 0, "experiment");
  QueueEntry entry;
  entry.experiment = toJson(batch).at("experiments").at(0);
  entry.label = labelOf(batch.experiments.front());
  return entry;
}

void QueueModel::checkNameFree(const std::string& name, int except) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (static_cast<int>(i) != except && entries_[i].label.name == name)
      throw InputError("$.name", "the queue already has an experiment named '" + name +
                                     "'; names must be unique (they name the result files)");
}

void QueueModel::append(const Json& experiment) {
  QueueEntry entry = makeEntry(experiment);
  checkNameFree(entry.label.name, -1);
  beginInsertRows({}, rowCount(), rowCount());
  entries_.push_back(std::move(entry));
  endInsertRows();
}

void QueueModel::replace(int row, const Json& experiment) {
  QueueEntry entry = makeEntry(experiment);
  checkNameFree(entry.label.name, row);
  QueueEntry& old = entries_.at(static_cast<size_t>(row));
  if (old.games() > 0 && gamesKept(row, entry.experiment) == old.games()) {
    entry.results = std::move(old.results);
    entry.results->relabel(entry.label);
    entry.values = std::move(old.values);
    entry.metricsTracked = old.metricsTracked;  // the columns its games were summarized for
  }
  old = std::move(entry);
  emit dataChanged(index(row, 0), index(row, columnCount() - 1));
}

Json QueueModel::canonical(const Json& experiment) {
  return makeEntry(experiment).experiment;
}

size_t QueueModel::gamesKept(int row, const Json& experiment) const {
  const QueueEntry& old = entry(row);
  const auto batchOf = [](const Json& e) { return parseExperiment(e, 0, "queue"); };
  const Batch now = batchOf(experiment);
  if (!matchExperiments(batchOf(old.experiment), now).front()) return 0;
  return std::min(old.games(), static_cast<size_t>(now.experiments.front().iterations));
}

void QueueModel::restore(std::vector<QueueEntry> entries) {
  beginResetModel();
  entries_ = std::move(entries);
  endResetModel();
}

void QueueModel::remove(int row) {
  beginRemoveRows({}, row, row);
  entries_.erase(entries_.begin() + row);
  endRemoveRows();
}

void QueueModel::duplicate(int row) {
  Json copy = entry(row).experiment;
  copy["name"] = freeName(copy.at("name").get<std::string>() + "-copy");
  QueueEntry entry = makeEntry(copy);
  beginInsertRows({}, row + 1, row + 1);
  entries_.insert(entries_.begin() + row + 1, std::move(entry));
  endInsertRows();
}

void QueueModel::clear() {
  beginResetModel();
  entries_.clear();
  endResetModel();
}

std::string QueueModel::freeName(const std::string& base) const {
  const auto taken = [&](const std::string& name) {
    for (const auto& e : entries_)
      if (e.label.name == name) return true;
    return false;
  };
  std::string name = base;
  for (int k = 2; taken(name); ++k) name = base + "-" + std::to_string(k);
  return name;
}

Json QueueModel::document(uint64_t seed) const {
  Json experiments = Json::array();
  for (const auto& e : entries_) experiments.push_back(e.experiment);
  return {{"format", kBatchFormat}, {"seed", seed}, {"experiments", experiments}};
}

Batch QueueModel::batch(uint64_t seed) const {
  return parseBatch(document(seed), "queue");
}

void QueueModel::load(const Batch& batch) {
  beginResetModel();
  entries_.clear();
  const Json experiments = toJson(batch).at("experiments");
  for (size_t i = 0; i < batch.experiments.size(); ++i) {
    QueueEntry entry;
    entry.experiment = experiments[i];
    entry.label = labelOf(batch.experiments[i]);
    entries_.push_back(std::move(entry));
  }
  endResetModel();
}

void QueueModel::clearResults() {
  for (auto& e : entries_) {
    e.results.reset();
    for (auto& v : e.values) v.clear();
  }
  if (!entries_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void QueueModel::clearResults(int row) {
  QueueEntry& e = entries_.at(static_cast<size_t>(row));
  e.results.reset();
  for (auto& v : e.values) v.clear();
  emit dataChanged(index(row, 0), index(row, columnCount() - 1));
}

size_t QueueModel::games() const {
  size_t total = 0;
  for (const auto& e : entries_) total += e.games();
  return total;
}

size_t QueueModel::plannedGames() const {
  size_t total = 0;
  for (const auto& e : entries_) total += static_cast<size_t>(e.label.plannedIterations);
  return total;
}

bool QueueModel::complete() const {
  for (const auto& e : entries_)
    if (e.games() != static_cast<size_t>(e.label.plannedIterations)) return false;
  return true;
}

void QueueModel::catalogChanged() {
  beginResetModel();
  endResetModel();
}

void QueueModel::addGames(int row, std::span<const GameRecord> games) {
  QueueEntry& entry = entries_.at(static_cast<size_t>(row));
  if (!entry.results) {
    entry.results.emplace(entry.label);
    entry.metricsTracked = allMetrics().size();
    // One allocation per metric for the planned games (up to 10^7 of them, 80 MB a metric).
    const size_t planned = std::min<size_t>(entry.label.plannedIterations, 10'000'000);
    for (size_t k = 0; k < entry.metricsTracked; ++k) entry.values[k].reserve(planned);
  }
  for (const GameRecord& game : games) {
    entry.results->add(game);
    for (size_t k = 0; k < entry.metricsTracked; ++k) entry.values[k].push_back(game.metrics[k]);
  }
  emit dataChanged(index(row, Iterations), index(row, columnCount() - 1));
}

std::optional<ExperimentSummary> QueueModel::summary(int row) const {
  const QueueEntry& e = entry(row);
  if (!e.results) return std::nullopt;
  return e.results->summary();
}

std::vector<ExperimentSummary> QueueModel::summaries() const {
  std::vector<ExperimentSummary> all;
  for (const auto& e : entries_)
    if (e.results) all.push_back(e.results->summary());
  return all;
}

}  // namespace ddalab::gui
