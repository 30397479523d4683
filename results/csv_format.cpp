#include "results/csv_format.h"

#include <system_error>

#include "core/params.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// `file` opened for reading. A FIFO could block the open forever and a device (or a link to
// /dev/zero) never end: anything but a regular file is refused before it is opened.
std::ifstream openRegularCsvFile(const fs::path& file) {
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(file.string(),
                     "not a regular file (a folder, pipe, socket or device); expected a CSV file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "cannot open the file");
  return in;
}

}  // namespace

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csvLine(const CsvRecord& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csvField(fields[i]);
  }
  return line += '\n';
}

std::string csvNumber(double value) {
  return csvNumberText(value);
}

CsvReader::CsvReader(const fs::path& file) : name_(file.string()), in_(openRegularCsvFile(file)) {
  buffer_.resize(1 << 20);
}

CsvReader::CsvReader(std::string text, std::string name, CsvLineBreaks lineBreaks)
    : name_(std::move(name)),
      buffer_(std::move(text)),
      end_(buffer_.size()),
      lineBreaks_(lineBreaks) {}

bool CsvReader::next(CsvRecord& fields) {
  count_ = 0;
  recordLine_ = line_;
  quoted_ = false;
  blank_ = false;
  if (peek() == EOF) return false;
  std::string* field = &startField(fields);
  while (true) {
    // Copy a run of ordinary characters at once (the common case: numbers).
    size_t run = position_;
    while (run < end_ && !isSpecial(buffer_[run])) ++run;
    field->append(buffer_.data() + position_, run - position_);
    position_ = run;
    const int c = get();
    if (c == EOF || c == '\n') {
      line_ += (c == '\n');
      fields.resize(count_);
      blank_ = count_ == 1 && fields[0].empty() && !quoted_;
      return true;
    }
    if (c == ',')
      field = &startField(fields);
    else if (c == '"')
      readQuoted(*field);
    else if (c != '\r' || peek() != '\n')  // a CR before LF is part of the line end
      *field += static_cast<char>(c);
  }
}

void CsvReader::fail(size_t column, const std::string& message) const {
  throw InputError(name_ + ":" + std::to_string(recordLine_),
                   "column " + std::to_string(column) + ": " + message);
}

std::string& CsvReader::startField(CsvRecord& fields) {
  if (count_ == fields.size()) fields.emplace_back();
  fields[count_].clear();
  return fields[count_++];
}

// Refills the buffer from the file when it is used up; false at the end of the input.
bool CsvReader::fill() {
  if (position_ < end_) return true;
  if (!in_.is_open()) return false;
  in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  position_ = 0;
  end_ = static_cast<size_t>(in_.gcount());
  return end_ > 0;
}

// The rest of a field that starts with a quote; "" inside stands for one quote.
void CsvReader::readQuoted(std::string& field) {
  const size_t column = count_;
  if (!field.empty()) fail(column, "quote inside an unquoted field");
  quoted_ = true;
  while (true) {
    const int c = get();
    if (lineBreaks_ == CsvLineBreaks::Refused && (c == EOF || c == '\n'))
      throw InputError(name_ + ":" + std::to_string(recordLine_),
                       "a quoted field is not closed on its line; expected CSV");
    if (c == EOF) fail(column, "quoted field not closed before the end of the file");
    if (c == '"' && peek() != '"') break;
    if (c == '"') get();  // the second quote of a doubled pair
    line_ += (c == '\n');
    field += static_cast<char>(c);
  }
  const int after = peek();
  if (after != ',' && after != '\n' && after != '\r' && after != EOF)
    fail(column, "text after the closing quote");
}

}  // namespace ddalab
