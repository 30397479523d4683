#include "experiments/plugins.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>

#include "core/plugin.h"
#include "core/sha256.h"
#include "games/registry.h"
#include "players/registry.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

std::vector<LoadedPlugin>& loaded() {
  static std::vector<LoadedPlugin> plugins;
  return plugins;
}

std::mutex& loadMutex() {
  static std::mutex mutex;
  return mutex;
}

// The entry point of the library at `file`, checked against this program's ABI and compiler.
const PluginEntry& openEntry(const fs::path& file) {
  using EntryPoint = const PluginEntry* (*)();
  const auto entryPoint = reinterpret_cast<EntryPoint>(pluginSymbol(file, DDALAB_PLUGIN_SYMBOL));
  const PluginEntry* entry = entryPoint ? entryPoint() : nullptr;
  std::string why;
  if (!entry)
    why = std::string("not a ddalab plug-in: no ") + DDALAB_PLUGIN_SYMBOL +
          " (define it with DDALAB_PLUGIN from core/plugin.h)";
  else if (entry->abi != DDALAB_PLUGIN_ABI)
    why = "built for plug-in ABI " + std::to_string(entry->abi) + ", this ddalab (" +
          DDALAB_SDK_VERSION + ") loads ABI " + std::to_string(DDALAB_PLUGIN_ABI) +
          "; rebuild it against this ddalab";
  else if (std::string(entry->compiler) != __VERSION__)
    why = std::string("built with compiler ") + entry->compiler + ", this ddalab with " +
          __VERSION__ + " (the C++ library ABI must match); rebuild it with the same compiler";
  else if (!entry->registerInto || !entry->name || !*entry->name)
    why = "its entry point has no name or no registration function";
  if (!why.empty()) throw InputError(file.string(), why);
  return *entry;
}

// Registers the plug-in's entries into a staging catalog, then into the process's one only if
// none of its ids is taken: a refused plug-in leaves the catalog as it was.
// Refuses a plug-in's metrics before anything of it is added: a taken key, or more metrics or
// scratch than the catalog has left.
void checkRoomForMetrics(std::span<const MetricInfo> metrics, const std::string& file) {
  size_t scratch = 0;
  for (const MetricInfo& info : metrics) {
    if (const std::string other = catalog().metricOrigin(info.key); !other.empty())
      throw InputError(file, "metric '" + info.key + "' is already registered by " + other);
    scratch += info.scratchSize;
  }
  const auto all = catalog().metrics();
  if (all.size() + metrics.size() > kMaxMetrics)
    throw InputError(file, "its " + std::to_string(metrics.size()) +
                               " metric(s) do not fit: " + std::to_string(all.size()) +
                               " of the catalog's " + std::to_string(kMaxMetrics) + " are taken");
  const size_t used = catalog().scratchUsed();
  if (used + scratch > kMetricScratch)
    throw InputError(file, "its metrics need " + std::to_string(scratch) +
                               " doubles of scratch, only " +
                               std::to_string(kMetricScratch - used) + " are left");
}

void registerEntries(const PluginEntry& entry, LoadedPlugin& plugin) {
  const std::string origin = "plug-in " + plugin.name + " (" + plugin.file.string() + ")";
  auto staging = std::make_unique<Catalog>();
  try {
    entry.registerInto(*staging, origin);
  } catch (const std::exception& e) {
    // The catalog's refusals of an entry name the plug-in (its origin), the entry and the field.
    if (const auto* refused = dynamic_cast<const InputError*>(&e);
        refused && refused->path().starts_with(origin))
      throw;
    throw InputError(plugin.file.string(), std::string("its registration failed: ") + e.what());
  }
  for (const GameInfo& info : staging->games())
    if (const std::string other = catalog().gameOrigin(info.id); !other.empty())
      throw InputError(plugin.file.string(),
                       "game '" + info.id + "' is already registered by " + other);
  for (const PlayerInfo& info : staging->players())
    if (const std::string other = catalog().playerOrigin(info.id); !other.empty())
      throw InputError(plugin.file.string(),
                       "player '" + info.id + "' is already registered by " + other);
  const auto metrics = staging->metrics().subspan(kBuiltInMetrics);
  checkRoomForMetrics(metrics, plugin.file.string());
  for (const GameInfo& info : staging->games()) {
    catalog().add(info, origin);
    plugin.games.push_back(info.id);
  }
  for (const PlayerInfo& info : staging->players()) {
    catalog().add(info, origin);
    plugin.players.push_back(info.id);
  }
  for (const MetricInfo& info : metrics) {
    catalog().add(info, origin);
    plugin.metrics.push_back(info.key);
  }
}

// Whether the ELF64 image `bytes` defines `name` in its dynamic symbol table (false for anything
// that is not such an image; every offset is checked against the size).
bool definesDynamicSymbol(std::string_view bytes, std::string_view name) {
  Elf64_Ehdr header;
  if (bytes.size() < sizeof header ||
      bytes.substr(0, SELFMAG) != std::string_view(ELFMAG, SELFMAG) ||
      bytes[EI_CLASS] != ELFCLASS64)
    return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  const auto sectionAt = [&](size_t i, Elf64_Shdr& section) {
    const uint64_t at = header.e_shoff + i * sizeof(Elf64_Shdr);
    if (header.e_shentsize != sizeof(Elf64_Shdr) || at + sizeof section > bytes.size())
      return false;
    std::memcpy(&section, bytes.data() + at, sizeof section);
    return section.sh_offset + section.sh_size <= bytes.size();
  };
  for (size_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr symbols, strings;
    if (!sectionAt(i, symbols) || symbols.sh_type != SHT_DYNSYM ||
        !sectionAt(symbols.sh_link, strings))
      continue;
    for (uint64_t at = symbols.sh_offset;
         at + sizeof(Elf64_Sym) <= symbols.sh_offset + symbols.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol;
      std::memcpy(&symbol, bytes.data() + at, sizeof symbol);
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.sh_size) continue;
      const std::string_view table = bytes.substr(strings.sh_offset, strings.sh_size);
      const std::string_view symbolName = table.substr(symbol.st_name, name.size() + 1);
      if (symbolName.size() == name.size() + 1 && symbolName.substr(0, name.size()) == name &&
          symbolName.back() == '\0')
        return true;
    }
  }
  return false;
}

// A plug-in file opened for reading and checked: a regular file of at most kMaxPluginBytes.
class CheckedPluginFile {
 public:
  // Opened without blocking (a FIFO would wait for a writer) and checked on the opened file
  // (what the name pointed to when checked is what is read).
  explicit CheckedPluginFile(const fs::path& file)
      : fd_(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) {
    if (fd_ < 0) {
      const int why = errno;
      throw InputError(file.string(), why == ENOENT
                                          ? std::string("no such plug-in file")
                                          : std::string("cannot be read: ") + std::strerror(why));
    }
    struct stat info {};
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw InputError(file.string(),
                       std::string("expected a plug-in file (a shared library), found ") +
                           (S_ISDIR(info.st_mode)                            ? "a folder"
                            : S_ISFIFO(info.st_mode)                         ? "a FIFO"
                            : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                                                             : "no regular file"));
    }
    size_ = static_cast<uint64_t>(info.st_size);
    if (size_ > kMaxPluginBytes) {
      ::close(fd_);
      throw InputError(file.string(), "expected a plug-in file of at most " +
                                          std::to_string(kMaxPluginBytes >> 20) + " MiB, found " +
                                          std::to_string(size_ >> 20) + " MiB");
    }
  }
  CheckedPluginFile(const CheckedPluginFile&) = delete;
  CheckedPluginFile& operator=(const CheckedPluginFile&) = delete;
  ~CheckedPluginFile() { ::close(fd_); }

  int fd() const { return fd_; }
  uint64_t size() const { return size_; }

 private:
  int fd_;
  uint64_t size_ = 0;
};

#if defined(__x86_64__)
constexpr Elf64_Half kHostMachine = EM_X86_64;
constexpr const char* kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr Elf64_Half kHostMachine = EM_AARCH64;
constexpr const char* kHostMachineName = "AArch64";
#else
#error "the plug-in loader checks ELF64 images of an x86-64 or AArch64 host"
#endif
static_assert(std::endian::native == std::endian::little, "the ELF checks read little-endian");

// Whether the `length` bytes from `offset` lie inside a file of `size` bytes (no overflow).
bool insideFile(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

std::string byteRange(uint64_t offset, uint64_t length) {
  return std::to_string(length) + " bytes from offset " + std::to_string(offset);
}

// `count` records of type T at `offset` of the opened file (the range checked by the caller).
template <typename T>
std::vector<T> readRecords(const CheckedPluginFile& checked, uint64_t offset, size_t count,
                           const fs::path& file) {
  std::vector<T> records(count);
  const size_t bytes = count * sizeof(T);
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::pread(checked.fd(), reinterpret_cast<char*>(records.data()) + got,
                              bytes - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(file.string(), n < 0 ? std::string("cannot be read: ") + std::strerror(errno)
                                            : std::string("shrank while it was read"));
    got += static_cast<size_t>(n);
  }
  return records;
}

// Refuses, naming the file and what is wrong, an image dlopen would crash on or misread: anything
// but a 64-bit little-endian ELF shared library of this machine whose header tables, segments and
// sections lie inside the file (a truncated library is mapped past its end: SIGBUS). What the
// checks cannot see is corrupt machine code or data inside a well-formed file.
void checkElfImage(const CheckedPluginFile& checked, const fs::path& file) {
  const uint64_t size = checked.size();
  const auto refuse = [&](const std::string& why) { throw InputError(file.string(), why); };
  const auto truncated = [&](const std::string& what, uint64_t offset, uint64_t length) {
    refuse("not a loadable shared library: its " + what + " (" + byteRange(offset, length) +
           ") lies past the end of the file (" + std::to_string(size) +
           " bytes): the file is truncated or damaged");
  };
  if (size < sizeof(Elf64_Ehdr))
    refuse("not a shared library: " + std::to_string(size) +
           " bytes, shorter than an ELF header (" + std::to_string(sizeof(Elf64_Ehdr)) + ")");
  const Elf64_Ehdr header = readRecords<Elf64_Ehdr>(checked, 0, 1, file).front();
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    refuse("not a shared library: no ELF header (the file does not start with \\x7fELF)");
  if (header.e_ident[EI_CLASS] != ELFCLASS64)
    refuse("expected a 64-bit ELF shared library, found " +
           std::string(header.e_ident[EI_CLASS] == ELFCLASS32 ? "a 32-bit one" : "another class"));
  if (header.e_ident[EI_DATA] != ELFDATA2LSB)
    refuse("expected a little-endian ELF shared library, found a big-endian or unknown one");
  if (header.e_ident[EI_VERSION] != EV_CURRENT || header.e_version != EV_CURRENT)
    refuse("expected ELF version 1, found " + std::to_string(header.e_version));
  if (header.e_type != ET_DYN)
    refuse("expected a shared library (ELF type ET_DYN), found " +
           std::string(header.e_type == ET_EXEC   ? "an executable"
                       : header.e_type == ET_REL  ? "an object file (.o): link it as a MODULE"
                       : header.e_type == ET_CORE ? "a core dump"
                                                  : "ELF type " + std::to_string(header.e_type)));
  if (header.e_machine != kHostMachine)
    refuse(std::string("expected a shared library for this machine (") + kHostMachineName +
           "), found one for ELF machine " + std::to_string(header.e_machine));
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(Elf64_Phdr))
    refuse("not a loadable shared library: expected program headers of " +
           std::to_string(sizeof(Elf64_Phdr)) + " bytes, found " + std::to_string(header.e_phnum) +
           " of " + std::to_string(header.e_phentsize));
  const uint64_t programBytes = uint64_t{header.e_phnum} * sizeof(Elf64_Phdr);
  if (!insideFile(header.e_phoff, programBytes, size))
    truncated("program header table", header.e_phoff, programBytes);
  const auto segments = readRecords<Elf64_Phdr>(checked, header.e_phoff, header.e_phnum, file);
  for (size_t i = 0; i < segments.size(); ++i)
    if (!insideFile(segments[i].p_offset, segments[i].p_filesz, size))
      truncated("segment " + std::to_string(i), segments[i].p_offset, segments[i].p_filesz);
  if (header.e_shoff == 0) return;  // no section headers: the loader needs none
  if (header.e_shentsize != sizeof(Elf64_Shdr))
    refuse("not a loadable shared library: expected section headers of " +
           std::to_string(sizeof(Elf64_Shdr)) + " bytes, found " +
           std::to_string(header.e_shentsize));
  if (!insideFile(header.e_shoff, sizeof(Elf64_Shdr), size))
    truncated("section header table", header.e_shoff, sizeof(Elf64_Shdr));
  // Past SHN_LORESERVE sections, e_shnum is 0 and the first header's sh_size holds the count.
  const uint64_t count = header.e_shnum != 0
                             ? header.e_shnum
                             : readRecords<Elf64_Shdr>(checked, header.e_shoff, 1, file)[0].sh_size;
  if (count > size / sizeof(Elf64_Shdr) ||
      !insideFile(header.e_shoff, count * sizeof(Elf64_Shdr), size))
    truncated("section header table", header.e_shoff, count * sizeof(Elf64_Shdr));
  const auto sections =
      readRecords<Elf64_Shdr>(checked, header.e_shoff, static_cast<size_t>(count), file);
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].sh_type != SHT_NOBITS &&
        !insideFile(sections[i].sh_offset, sections[i].sh_size, size))
      truncated("section " + std::to_string(i), sections[i].sh_offset, sections[i].sh_size);
}

}  // namespace

void* pluginSymbol(const fs::path& file, const char* name) {
  const CheckedPluginFile checked(file);  // dlopen would block on a FIFO too
  checkElfImage(checked, file);           // and crash on a truncated library
  // Never closed: the catalog keeps the functions of what it registered; RTLD_LOCAL keeps its
  // symbols to itself (a refused library stays mapped, unused).
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw InputError(file.string(), std::string("cannot be loaded: ") + dlerror());
  return dlsym(library, name);
}

std::string readPluginFile(const fs::path& file) {
  const CheckedPluginFile checked(file);
  std::string bytes(static_cast<size_t>(checked.size()), '\0');
  size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(checked.fd(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw InputError(file.string(), std::string("cannot be read: ") + std::strerror(errno));
    if (n == 0) break;  // shrunk while read: what is there
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

LoadedPlugin loadPlugin(const fs::path& file) {
  std::error_code error;
  const fs::path path = fs::canonical(file, error);
  if (error) throw InputError(file.string(), "no such plug-in file");
  const std::string bytes = readPluginFile(file);  // anything but a bounded regular file: refused
  const std::lock_guard lock(loadMutex());
  for (const LoadedPlugin& plugin : loaded())
    if (plugin.file == path) return plugin;
  gameRegistry();  // the built-ins first: their ids and their order win
  playerRegistry();
  if (definesDynamicSymbol(bytes, DDALAB_VIEW_PLUGIN_SYMBOL))
    throw InputError(file.string(),
                     "a plug-in's view library: ddalab-gui loads it (File -> Load plug-in...)");
  const PluginEntry& entry = openEntry(path);
  LoadedPlugin plugin{path,
                      entry.name,
                      entry.version ? entry.version : "",
                      entry.ddalabVersion ? entry.ddalabVersion : "",
                      entry.compiler,
                      sha256Hex(bytes),
                      {},
                      {},
                      {}};
  for (const LoadedPlugin& other : loaded())
    if (other.name == plugin.name)
      throw InputError(file.string(), "a plug-in named '" + plugin.name +
                                          "' is already loaded from " + other.file.string());
  registerEntries(entry, plugin);
  return loaded().emplace_back(std::move(plugin));
}

std::vector<LoadedPlugin> loadedPlugins() {
  const std::lock_guard lock(loadMutex());
  return {loaded().begin(), loaded().end()};
}

std::vector<fs::path> pluginFilesOnPath(const std::string& path) {
  std::vector<fs::path> files;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t end = std::min(path.find(':', start), path.size());
    const fs::path entry = path.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    std::error_code error;
    if (!fs::is_directory(entry, error)) {
      files.push_back(entry);  // whatever it is: loading checks it
      continue;
    }
    std::vector<fs::path> inFolder;
    for (fs::directory_iterator item(entry, error), last; !error && item != last;
         item.increment(error))
      if (item->path().extension() == ".so") inFolder.push_back(item->path());
    if (error)
      throw InputError(entry.string(), "the folder cannot be listed: " + error.message() +
                                           " (named by DDALAB_PLUGIN_PATH)");
    std::sort(inFolder.begin(), inFolder.end());
    files.insert(files.end(), inFolder.begin(), inFolder.end());
  }
  return files;
}

bool isViewLibrary(const fs::path& file) {
  // Read from the ELF dynamic symbol table, not by dlopen: a view library needs ddalab-gui's
  // symbols and cannot even be opened by the other programs.
  try {
    return definesDynamicSymbol(readPluginFile(file), DDALAB_VIEW_PLUGIN_SYMBOL);
  } catch (const InputError&) {
    return false;  // loading it as a plug-in says why not
  }
}

void loadPlugins(std::span<const std::string> files) {
  if (const char* path = std::getenv("DDALAB_PLUGIN_PATH"))
    for (const fs::path& file : pluginFilesOnPath(path)) try {
        if (!isViewLibrary(file)) loadPlugin(file);  // views are ddalab-gui's
      } catch (const InputError& e) {
        throw InputError(e.path(), e.message() + " (named by DDALAB_PLUGIN_PATH)");
      }
  for (const std::string& file : files) loadPlugin(file);
}

Json pluginsUsed(std::span<const std::string> ids) {
  Json used = Json::array();
  const std::lock_guard lock(loadMutex());
  for (const LoadedPlugin& plugin : loaded()) {
    const auto registered = [&](const std::string& id) {
      return std::find(plugin.games.begin(), plugin.games.end(), id) != plugin.games.end() ||
             std::find(plugin.players.begin(), plugin.players.end(), id) != plugin.players.end();
    };
    if (!plugin.metrics.empty() || std::any_of(ids.begin(), ids.end(), registered))
      used.push_back({{"name", plugin.name},
                      {"version", plugin.version},
                      {"sha256", plugin.sha256},
                      {"file", plugin.file.string()}});
  }
  return used;
}

}  // namespace ddalab
