#include "experiments/journal.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// 4: a record says how many metrics it holds (plug-ins add metrics); 3: the header names the
// experiment ("ddalab-journal/3 <playIdentity, 16 hex digits>\n"); 2: with chance bins.
constexpr std::string_view kFormat = "ddalab-journal/4 ";
constexpr size_t kHeaderSize = kFormat.size() + 16 + 1;

std::string fileHeader(uint64_t identity) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(identity));
  return std::string(kFormat) + hex + "\n";
}
constexpr uint32_t kRecordMagic = 0x4a444444;  // "DDDJ"
constexpr size_t kRecordHeader = 16;           // magic, payload size, checksum
constexpr uint32_t kMaxPayload = 1u << 30;     // a trace line of a very long game fits

uint64_t checksum(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// Reads the fields of one payload in order; false once it would read past the end.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool get(T& value) {
    if (bytes_.size() < sizeof(T)) return false;
    std::memcpy(&value, bytes_.data(), sizeof(T));
    bytes_.remove_prefix(sizeof(T));
    return true;
  }
  bool getText(std::string& text, uint32_t size) {
    if (bytes_.size() < size) return false;
    text.assign(bytes_.substr(0, size));
    bytes_.remove_prefix(size);
    return true;
  }
  bool atEnd() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

void encode(const GameRecord& r, std::string_view trace, std::string& payload) {
  payload.clear();
  put(payload, r.iteration);
  put(payload, r.seed);
  put<int32_t>(payload, r.numPlayers);
  put<int32_t>(payload, r.winner);
  put<uint8_t>(payload, r.capped);
  const size_t metrics = allMetrics().size();
  put<uint8_t>(payload, static_cast<uint8_t>(metrics));
  for (size_t k = 0; k < metrics; ++k) put(payload, r.metrics[k]);
  for (int p = 0; p < r.numPlayers; ++p) {
    put(payload, r.scores[p]);
    put<int32_t>(payload, r.counters[p].moves);
    put<int32_t>(payload, r.counters[p].turns);
    put<int32_t>(payload, r.counters[p].leadRounds);
    for (uint32_t count : r.chance[p]) put(payload, count);
  }
  put(payload, static_cast<uint32_t>(trace.size()));
  payload.append(trace);
}

bool decode(std::string_view payload, JournalEntry& entry) {
  PayloadReader in(payload);
  GameRecord& r = entry.record;
  int32_t numPlayers = 0, winner = 0;
  uint8_t capped = 0;
  if (!in.get(r.iteration) || !in.get(r.seed) || !in.get(numPlayers) || !in.get(winner) ||
      !in.get(capped) || numPlayers < 1 || numPlayers > kMaxPlayers)
    return false;
  r.numPlayers = numPlayers;
  r.winner = winner;
  r.capped = capped != 0;
  // A game recorded with other metrics (a plug-in's metric loaded since) is played again.
  uint8_t metrics = 0;
  if (!in.get(metrics) || metrics != allMetrics().size()) return false;
  for (size_t k = 0; k < metrics; ++k)
    if (!in.get(r.metrics[k])) return false;
  for (int p = 0; p < numPlayers; ++p) {
    int32_t moves = 0, turns = 0, leadRounds = 0;
    if (!in.get(r.scores[p]) || !in.get(moves) || !in.get(turns) || !in.get(leadRounds))
      return false;
    r.counters[p] = {moves, turns, leadRounds};
    for (uint32_t& count : r.chance[p])
      if (!in.get(count)) return false;
  }
  uint32_t traceSize = 0;
  return in.get(traceSize) && in.getText(entry.trace, traceSize) && in.atEnd();
}

}  // namespace

JournalScan readJournal(const fs::path& file, uint64_t identity,
                        const std::function<bool(JournalEntry&&)>& onEntry) {
  JournalScan scan;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    if (!fs::exists(file)) return scan;
    throw std::runtime_error("cannot read the checkpoint " + file.string());
  }
  const std::string expected = fileHeader(identity);
  std::string header(kHeaderSize, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size())) ||
      !header.starts_with(kFormat) || header.back() != '\n')
    return scan;  // empty, torn or of another format: start again
  if (header != expected)
    throw InputError(file.string(),
                     "holds the finished games of another experiment (checkpoint " +
                         header.substr(kFormat.size(), 16) + ", this experiment's is " +
                         expected.substr(kFormat.size(), 16) +
                         "); were checkpoints renamed or moved? Remove it to play the "
                         "experiment again, or resume with the batch it was started with");
  scan.validBytes = kHeaderSize;
  std::string payload;
  while (true) {
    char head[kRecordHeader];
    if (!in.read(head, sizeof head)) break;
    uint32_t magic = 0, size = 0;
    uint64_t sum = 0;
    std::memcpy(&magic, head, 4);
    std::memcpy(&size, head + 4, 4);
    std::memcpy(&sum, head + 8, 8);
    if (magic != kRecordMagic || size > kMaxPayload) break;
    payload.resize(size);
    if (!in.read(payload.data(), size) || checksum(payload) != sum) break;
    JournalEntry entry;
    if (!decode(payload, entry) || !onEntry(std::move(entry))) break;
    ++scan.entries;
    scan.validBytes += kRecordHeader + size;
  }
  return scan;
}

JournalScan readJournalFrom(const fs::path& file, uint64_t identity, size_t first,
                            const std::function<void(JournalEntry&&)>& onEntry) {
  size_t next = first;
  return readJournal(file, identity, [&](JournalEntry&& entry) {
    if (entry.record.iteration != next) return false;
    ++next;
    onEntry(std::move(entry));
    return true;
  });
}

JournalWriter::JournalWriter(const fs::path& file, uintmax_t validBytes, uint64_t identity)
    : file_(file, validBytes) {
  if (validBytes == 0) file_.write(fileHeader(identity));
}

void JournalWriter::append(const GameRecord& record, std::string_view trace) {
  encode(record, trace, scratch_);
  std::string head;
  put(head, kRecordMagic);
  put(head, static_cast<uint32_t>(scratch_.size()));
  put(head, checksum(scratch_));
  file_.write(head);
  file_.write(scratch_);
}

}  // namespace ddalab
