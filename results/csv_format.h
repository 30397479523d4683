#pragma once
// The CSV format (RFC 4180), apart from what any file holds: records of fields separated by
// commas, a field holding a comma, quote or line break quoted with its quotes doubled, records
// ending in '\n' (a CR before it is part of the line end when reading). Numbers are written in
// their shortest round-trip form with a '.' decimal point whatever the locale. Every CSV reader
// and writer of the project uses these; results/csv_schema.h says which columns each file has.
#include <charconv>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ddalab {

// One record: its fields in order.
using CsvRecord = std::vector<std::string>;

// `text` as one CSV field (quoted when it holds a comma, quote or line break).
std::string csvField(const std::string& text);
// `fields` as one line of CSV, each quoted as csvField does, ending in '\n'.
std::string csvLine(const CsvRecord& fields);

// Appends the shortest text that reads back to the same bits of `value` (std::to_chars ignores
// the locale), then `separator` (none when '\0').
template <typename Number>
void appendCsvNumber(std::string& out, Number value, char separator = ',') {
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)error;  // 64 characters fit every double and 64-bit integer
  out.append(buffer, end);
  if (separator) out += separator;
}

// `value` as CSV writes numbers: the shortest text that reads back to the same bits.
template <typename Number>
std::string csvNumberText(Number value) {
  std::string text;
  appendCsvNumber(text, value, '\0');
  return text;
}

// `value` as CSV writes numbers (csvNumberText of a double).
std::string csvNumber(double value);

// Whether a quoted field may hold a line break: RFC 4180 allows it; a table read line by line
// (ddalab study mixed-model's) refuses it, naming the line where the quote opened.
enum class CsvLineBreaks { InQuotes, Refused };

// Reads CSV record by record, from a file (in blocks: constant memory) or from text already in
// memory; errors (InputError) name the file, the line and the column.
class CsvReader {
 public:
  // Opens `file`; throws InputError when it is not a regular file (a FIFO could block the open
  // forever, a device never end) or cannot be opened.
  explicit CsvReader(const std::filesystem::path& file);
  // Reads `text`, named `name` in errors.
  CsvReader(std::string text, std::string name, CsvLineBreaks lineBreaks);

  // The next record into `fields` (their strings are reused: no allocation per row once warm);
  // false at the end of the input.
  bool next(CsvRecord& fields);
  // The line the last record started on (1-based).
  size_t line() const { return recordLine_; }
  // Whether the last record was an empty line (one empty field, no quotes).
  bool blank() const { return blank_; }
  // Throws InputError "<name>:<line>: column <column>: <message>" for column `column` (1-based)
  // of the last record.
  [[noreturn]] void fail(size_t column, const std::string& message) const;

 private:
  static bool isSpecial(char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; }
  std::string& startField(CsvRecord& fields);
  bool fill();
  int get() { return fill() ? static_cast<unsigned char>(buffer_[position_++]) : EOF; }
  int peek() { return fill() ? static_cast<unsigned char>(buffer_[position_]) : EOF; }
  void readQuoted(std::string& field);

  std::string name_;
  std::ifstream in_;  // not open when reading text
  std::string buffer_;
  size_t position_ = 0, end_ = 0;
  size_t count_ = 0;  // fields of the record being read
  size_t line_ = 1;
  size_t recordLine_ = 1;
  bool quoted_ = false;  // the record being read has a quoted field
  bool blank_ = false;
  CsvLineBreaks lineBreaks_ = CsvLineBreaks::InQuotes;
};

}  // namespace ddalab
