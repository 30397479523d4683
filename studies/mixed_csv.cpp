// Reading the long table `ddalab study mixed-model` fits (participant, condition, period, answer).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "core/params.h"
#include "core/json_input.h"
#include "results/csv_format.h"
#include "studies/mixed_model.h"

namespace ddalab {

namespace {

const InputFileKind kLongTableKind{256 << 20,
                                   "a CSV file with the columns participant, condition, period "
                                   "and answer"};

double parseNumber(const std::string& text, const std::string& where) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value))
    throw InputError(where, "expected a finite number, got '" + textExcerpt(text) + "'");
  return value;
}

// Index of `value` among `levels`, appended when new.
size_t level(std::vector<std::string>& levels, const std::string& value) {
  const auto at = std::find(levels.begin(), levels.end(), value);
  if (at != levels.end()) return static_cast<size_t>(at - levels.begin());
  levels.push_back(value);
  return levels.size() - 1;
}

struct Columns {
  size_t participant, condition, period, answer, item;  // item: npos when absent
};

Columns columnsOf(const std::vector<std::string>& header, const std::string& file) {
  const auto find = [&](const char* name) {
    const auto at = std::find(header.begin(), header.end(), name);
    return at == header.end() ? std::string::npos : static_cast<size_t>(at - header.begin());
  };
  Columns c{find("participant"), find("condition"), find("period"), find("answer"), find("item")};
  for (const auto& [index, name] : {std::pair{c.participant, "participant"},
                                    {c.condition, "condition"},
                                    {c.period, "period"},
                                    {c.answer, "answer"}})
    if (index == std::string::npos)
      throw InputError(file + ":1", std::string("no column '") + name +
                                        "' in the header; expected the columns participant, "
                                        "condition, period and answer");
  return c;
}

// The column of the covariate `name` (npos for none asked).
size_t covariateColumnOf(const std::vector<std::string>& header, const std::string& name,
                         const std::string& file) {
  if (name.empty()) return std::string::npos;
  const auto at = std::find(header.begin(), header.end(), name);
  if (at == header.end())
    throw InputError(file + ":1", "no column '" + textExcerpt(name) +
                                      "' in the header; expected the covariate's column");
  return static_cast<size_t>(at - header.begin());
}

// The periods' levels sorted as numbers (R orders a numeric factor so), observations remapped.
void sortPeriods(MixedData& data, const std::vector<double>& values) {
  std::vector<size_t> order(data.periods.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<size_t> rank(order.size());
  std::vector<std::string> sorted;
  for (size_t k = 0; k < order.size(); ++k) {
    rank[order[k]] = k;
    sorted.push_back(data.periods[order[k]]);
  }
  data.periods = sorted;
  for (MixedObservation& o : data.observations) o.period = rank[o.period];
}

}  // namespace

MixedData readMixedCsv(const std::string& file, const std::string& item,
                       const std::string& covariate) {
  MixedData data;
  data.covariate = covariate;
  size_t covariateColumn = std::string::npos;
  std::vector<double> periodValues;
  std::map<std::string, size_t> items;
  std::optional<Columns> columns;
  // A CR ending the last line is part of its line end, as one before each '\n' is.
  std::string table = readInputFile(file, kLongTableKind);
  if (!table.empty() && table.back() == '\r') table.pop_back();
  CsvReader reader(std::move(table), file, CsvLineBreaks::Refused);
  std::vector<std::string> fields;
  while (reader.next(fields)) {
    if (reader.blank()) continue;
    const std::string where = file + ":" + std::to_string(reader.line());
    if (!columns) {
      columns = columnsOf(fields, file);
      covariateColumn = covariateColumnOf(fields, covariate, file);
      continue;
    }
    const auto field = [&](size_t index, const char* name) -> const std::string& {
      if (index >= fields.size())
        throw InputError(where + ": column " + name,
                         "missing; expected " + std::to_string(index + 1) + " fields");
      return fields[index];
    };
    if (columns->item != std::string::npos) {
      const std::string& key = field(columns->item, "item");
      ++items[key];
      if (!item.empty() && key != item) continue;
    }
    MixedObservation o;
    const std::string& participant = field(columns->participant, "participant");
    const std::string& condition = field(columns->condition, "condition");
    if (participant.empty() || condition.empty())
      throw InputError(where + ": column " + (participant.empty() ? "participant" : "condition"),
                       "is empty; expected a name");
    o.participant = level(data.participants, participant);
    o.condition = level(data.conditions, condition);
    const std::string& period = field(columns->period, "period");
    const double value = parseNumber(period, where + ": column period");
    o.period = level(data.periods, period);
    if (o.period == periodValues.size()) periodValues.push_back(value);
    o.answer = parseNumber(field(columns->answer, "answer"), where + ": column answer");
    if (!covariate.empty())
      o.covariate = parseNumber(field(covariateColumn, covariate.c_str()),
                                where + ": column " + textExcerpt(covariate));
    data.observations.push_back(o);
  }
  if (!columns) throw InputError(file, "is empty; expected a header and one row per answer");
  if (item.empty() && items.size() > 1)
    throw InputError(file, "holds " + std::to_string(items.size()) + " items (column item, e.g. '" +
                               textExcerpt(items.begin()->first) +
                               "'); expected --item KEY to pick one");
  if (!item.empty() && !items.contains(item))
    throw InputError(file, "has no rows of item '" + textExcerpt(item) + "' (column item)");
  if (data.observations.empty()) throw InputError(file, "has no answers; expected one row each");
  sortPeriods(data, periodValues);
  return data;
}

std::string mixedFitTable(const MixedFit& fit) {
  std::string table = "term,estimate,se,df,t,p,ci95_low,ci95_high\n";
  for (size_t k = 0; k < fit.coefficients.size(); ++k) {
    const MixedContrast c = *mixedCoefficient(fit, fit.coefficientNames[k]);
    table += csvField(c.name);
    for (double v : {c.estimate, c.se, c.df, c.t, c.p, c.low, c.high}) {
      table += ',';
      table += csvNumber(v);
    }
    table += "\n";
  }
  for (const auto& [name, value] : {std::pair{"var_participant", fit.participantVariance},
                                    {"var_residual", fit.residualVariance},
                                    {"reml_criterion", fit.remlCriterion}})
    table += std::string(name) + "," + csvNumber(value) + ",,,,,,\n";
  return table;
}

}  // namespace ddalab
