#pragma once
// Terminal tables (results/report.h, experiments/rating_report.h): text columns left-aligned,
// numbers right-aligned, widths fitting the content; numbers in fixed point whatever the locale.
#include <iosfwd>
#include <string>
#include <vector>

namespace ddalab {

// `value` in fixed point with `decimals` decimals, independent of the terminal's locale (tables
// are compared across machines); "n/a" for NaN (unknown or undefined).
std::string fixedText(double value, int decimals = 3);

// A table with `textColumns` left-aligned text columns first, then right-aligned numbers.
class TextTable {
 public:
  using Cells = std::vector<std::string>;
  explicit TextTable(Cells header, size_t textColumns = 1)
      : textColumns_(textColumns), rows_{std::move(header)} {}
  void addRow(Cells cells) { rows_.push_back(std::move(cells)); }
  // The header, a rule, then the rows, each line indented by two spaces.
  void print(std::ostream& out) const;

 private:
  std::vector<size_t> columnWidths() const;
  void printRow(std::ostream& out, const Cells& row, const std::vector<size_t>& widths) const;

  size_t textColumns_;
  std::vector<Cells> rows_;
};

}  // namespace ddalab
