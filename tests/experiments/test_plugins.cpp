// A plug-in file that is no loadable shared library of this machine is refused before dlopen,
// naming the file and what is wrong: truncated copies of a real built plug-in (dlopen mapped them
// past their end and the process died of SIGBUS, exit 135), and images of another class, byte
// order, type or machine. (Corrupt machine code inside a well-formed file cannot be checked.)
#include <elf.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "core/plugin.h"
#include "experiments/plugins.h"
#include "tests/support.h"

using namespace ddalab;

TEST_CASE(
    "a truncated plug-in is refused before dlopen, naming the file and what lies past its end",
    "[plugins]") {
  const std::filesystem::path plugin = DDALAB_TEST_PLUGIN;
  const std::string image = readPluginFile(plugin);
  REQUIRE(image.size() > 60'000);
  CHECK(pluginSymbol(plugin, DDALAB_PLUGIN_SYMBOL) != nullptr);  // the whole file loads
  const TempDir dir;
  for (const size_t size :
       {size_t{1'000}, size_t{4'096}, size_t{20'000}, size_t{60'000}, image.size() - 1}) {
    const auto file = dir.write("cut-" + std::to_string(size) + ".so", image.substr(0, size));
    INFO(file);
    const std::string start = file.string() + ": not a loadable shared library: its ";
    const std::string end = " lies past the end of the file (" + std::to_string(size) +
                            " bytes): the file is truncated or damaged";
    // (Catch2's combined matchers keep references: built in each check.)
    CHECK_THROWS_WITH(loadPlugin(file), Catch::StartsWith(start) && Catch::EndsWith(end));
    CHECK_THROWS_WITH(pluginSymbol(file, DDALAB_PLUGIN_SYMBOL),
                      Catch::StartsWith(start) && Catch::EndsWith(end));
    CHECK_FALSE(isViewLibrary(file));
  }
}

TEST_CASE("an ELF file that is no 64-bit little-endian shared library of this machine is refused",
          "[plugins]") {
  const std::string image = readPluginFile(DDALAB_TEST_PLUGIN);
  REQUIRE(image.size() > sizeof(Elf64_Ehdr));
  const TempDir dir;
  // `image` with the bytes at `offset` replaced by those of `value`.
  const auto changed = [&](size_t offset, auto value) {
    std::string bytes = image;
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    return bytes;
  };
  const Elf64_Half otherMachine = EM_PPC64;  // neither host ddalab builds for
  const std::vector<std::tuple<std::string, std::string, std::string>> refused = {
      {"short.so", image.substr(0, 40),
       "not a shared library: 40 bytes, shorter than an ELF header (64)"},
      {"text.so", std::string(100, 'x'),
       "not a shared library: no ELF header (the file does not start with \\x7fELF)"},
      {"32-bit.so", changed(EI_CLASS, uint8_t{ELFCLASS32}),
       "expected a 64-bit ELF shared library, found a 32-bit one"},
      {"big-endian.so", changed(EI_DATA, uint8_t{ELFDATA2MSB}),
       "expected a little-endian ELF shared library, found a big-endian or unknown one"},
      {"executable.so", changed(offsetof(Elf64_Ehdr, e_type), Elf64_Half{ET_EXEC}),
       "expected a shared library (ELF type ET_DYN), found an executable"},
      {"object.so", changed(offsetof(Elf64_Ehdr, e_type), Elf64_Half{ET_REL}),
       "expected a shared library (ELF type ET_DYN), found an object file (.o): link it as a "
       "MODULE"},
      {"machine.so", changed(offsetof(Elf64_Ehdr, e_machine), otherMachine),
       "found one for ELF machine " + std::to_string(otherMachine)},
      {"no-segments.so", changed(offsetof(Elf64_Ehdr, e_phnum), Elf64_Half{0}),
       "not a loadable shared library: expected program headers of 56 bytes, found 0 of 56"},
      {"headers-far.so", changed(offsetof(Elf64_Ehdr, e_shoff), Elf64_Off{1} << 40),
       "not a loadable shared library: its section header table (64 bytes from offset " +
           std::to_string(Elf64_Off{1} << 40) + ") lies past the end of the file"}};
  for (const auto& [name, bytes, why] : refused) {
    const auto file = dir.write(name, bytes);
    INFO(file);
    CHECK_THROWS_WITH(pluginSymbol(file, DDALAB_PLUGIN_SYMBOL),
                      Catch::StartsWith(file.string() + ": ") && Catch::Contains(why));
    CHECK_THROWS_WITH(loadPlugin(file),
                      Catch::StartsWith(file.string() + ": ") && Catch::Contains(why));
  }
}
