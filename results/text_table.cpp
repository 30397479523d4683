#include "results/text_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>

namespace ddalab {

std::string fixedText(double value, int decimals) {
  if (std::isnan(value)) return "n/a";
  char buffer[400];  // fixed notation of the largest double needs 309 digits
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  return error == std::errc() ? std::string(buffer, end) : "?";
}

void TextTable::print(std::ostream& out) const {
  const std::vector<size_t> widths = columnWidths();
  for (size_t r = 0; r < rows_.size(); ++r) {
    printRow(out, rows_[r], widths);
    if (r != 0) continue;
    size_t total = 0;
    for (size_t w : widths) total += w + 2;
    out << "  " << std::string(total - 2, '-') << '\n';
  }
}

std::vector<size_t> TextTable::columnWidths() const {
  std::vector<size_t> widths(rows_.front().size(), 0);
  for (const Cells& row : rows_)
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());
  return widths;
}

void TextTable::printRow(std::ostream& out, const Cells& row,
                         const std::vector<size_t>& widths) const {
  std::string line = "  ";
  for (size_t c = 0; c < widths.size(); ++c) {
    const std::string cell = c < row.size() ? row[c] : "";
    const std::string padding(widths[c] - cell.size(), ' ');
    line += (c == 0 ? "" : "  ") + (c < textColumns_ ? cell + padding : padding + cell);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  out << line << '\n';
}

}  // namespace ddalab
