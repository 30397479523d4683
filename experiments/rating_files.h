#pragma once
// The files of experiments/rating_results.h written and read: the CSVs (the columns of
// results/csv_schema.h) and ratings.json. Apart from the tables' computation, which does not
// know how they are stored.
#include <filesystem>
#include <string>

#include "core/params.h"
#include "experiments/rating_results.h"

namespace ddalab {

// The z of a central `confidence` interval of the standard normal distribution.
double centralZ(double confidence);

// Runs `parse`, an InputError it throws (a JSON path) prefixed with `source` (the file).
template <typename Parse>
auto withSource(const std::string& source, Parse parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.path(), e.message());
  }
}

// A model as ratings.json states it: the anchor by name (`names`), every setting.
Json modelJson(const RatingModel& model, const std::vector<std::string>& names);

// ratings.csv, pairwise.csv, level_curves.csv and ratings.json of `tables` (each complete under
// its final name or not at all; throws WriteError). `batch` gives the game and environment.
void writeTournamentFiles(const std::filesystem::path& dir, const Batch& batch,
                          const TournamentTables& tables);
// Removes those files (what an earlier write left) when they are regular files.
void removeTournamentFiles(const std::filesystem::path& dir);
// balance.csv and balance_summary.csv.
void writeBalanceFiles(const std::filesystem::path& dir, const BalanceTables& tables);

}  // namespace ddalab
