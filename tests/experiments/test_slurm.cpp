// ddalab slurm (experiments/slurm.h) against hostile paths: the #SBATCH --output word read back
// as Slurm 22.05's sbatch reads a directive, what sbatch cannot take refused naming the character
// and the option, and the settings that would fail only after the shards ran refused before
// anything is written. tests/app/cli/slurm_scripts_test.sh runs the scripts; tests/app/cli/slurm_test.sh on Slurm.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "experiments/slurm.h"
#include "tests/support.h"

using namespace ddalab;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// The first argument of a #SBATCH line as sbatch 22.05 reads it (src/sbatch/opt.c,
// _get_argument): single or double quotes group, a backslash takes the next character as it is,
// an unquoted '#' starts a comment, the line ends at a newline.
std::string sbatchArgument(const std::string& line) {
  std::string argument;
  char quote = 0;
  for (size_t i = 0; i < line.size() && line[i] != '\n'; ++i) {
    const char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      argument += line[++i];
    } else if (quote) {
      if (c == quote)
        quote = 0;
      else
        argument += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' || c == ' ' || c == '\t') {
      break;
    } else {
      argument += c;
    }
  }
  return argument;
}

// The value sbatch reads from the script's "#SBATCH --output=" line.
std::string outputDirective(const std::string& script) {
  const size_t at = script.find("#SBATCH --output=");
  REQUIRE(at != std::string::npos);
  const std::string argument = sbatchArgument(script.substr(at + 8));  // --output=VALUE
  return argument.substr(argument.find('=') + 1);
}

std::string doubledPercents(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

SlurmOptions optionsIn(const TempDir& dir, const std::string& out) {
  SlurmOptions o;
  o.shards = 3;
  o.out = dir.path() / out;
  o.ddalab = DDALAB_CLI;
  return o;
}

Batch smallBatch() {
  Json doc = {{"format", kBatchFormat},
              {"seed", 5},
              {"experiments", {ludoExperiment("c/a", "e-random", 6)}}};
  return parseBatch(doc, "file.json");
}

}  // namespace

TEST_CASE("ddalab slurm's --output directive is one sbatch word naming the logs folder, % doubled",
          "[slurm]") {
  TempDir dir;
  const std::string hostile = "res \"q'; touch PWNED; echo '\" 100%a #x";
  const SlurmOptions o = optionsIn(dir, hostile);
  const std::string logs = doubledPercents((dir.path() / (hostile + ".slurm") / "logs").string());
  CHECK(outputDirective(slurmArrayScript(o)) == logs + "/shard-%a.out");
  CHECK(outputDirective(slurmMergeScript(o)) == logs + "/merge.out");
  CHECK(shellWord("it's") == "'it'\\''s'");
}

TEST_CASE("ddalab slurm refuses a work folder sbatch cannot name, naming the character and option",
          "[slurm]") {
  TempDir dir;
  const Batch batch = smallBatch();
  SlurmOptions o = optionsIn(dir, "res\ntouch PWNED");
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--out ") && Contains("a newline"));
  o = optionsIn(dir, "res");
  o.work = dir.path() / "back\\slash";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--work ") && Contains("a backslash"));
  o.work = dir.path() / "w\nx";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--work ") && Contains("a newline"));
  o.partition = "a\rb";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--partition: expected one word"));
  o.partition = "";
  o.cpusPerTask = -1;  // Slurm would refuse the #SBATCH line only once the job is submitted
  CHECK_THROWS_WITH(
      writeSlurmJob(batch, o),
      Contains("--cpus-per-task: expected a number of CPUs >= 1") && Contains("got -1"));
  CHECK(fs::is_empty(dir.path()));     // nothing written
  o = optionsIn(dir, "res\nnewline");  // a newline only in the commands: quoted, accepted
  o.work = dir.path() / "work";
  CHECK_NOTHROW(writeSlurmJob(batch, o));
}

TEST_CASE("ddalab slurm refuses settings that would fail only after the shards ran", "[slurm]") {
  TempDir dir;
  const Batch batch = smallBatch();
  SlurmOptions o = optionsIn(dir, "res");
  o.ddalab = "/nonexistent";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--ddalab /nonexistent: expected the ddalab "
                                                      "executable every task runs, got nothing"));
  o.ddalab = dir.write("plain", "#!/bin/sh\n");
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("may not execute"));
  o.ddalab = dir.path();
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("not a regular file"));
  o = optionsIn(dir, "res");
  o.work = o.out;
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("give two separate folders"));
  o.work = o.out / "inside";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("give two separate folders"));
  o = optionsIn(dir, "plain");
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("exists and is not a folder"));
  o = optionsIn(dir, "res");
  o.work = dir.path() / "plain";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--work ") && Contains("is not a folder"));
  fs::create_directories(dir.path() / "other");
  dir.write("other/notes.txt", "mine");
  o.work = dir.path() / "other";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("holds other files"));
  CHECK(readText(dir.path() / "other" / "notes.txt") == "mine");
  CHECK_FALSE(fs::exists(dir.path() / "res"));
}

TEST_CASE("ddalab slurm keeps a work folder only for the same batch and the same shard count",
          "[slurm]") {
  TempDir dir;
  const Batch batch = smallBatch();
  SlurmOptions o = optionsIn(dir, "res");
  const SlurmJob job = writeSlurmJob(batch, o);
  CHECK(readText(job.shardList) == "shards/0\nshards/1\nshards/2\n");
  CHECK_NOTHROW(writeSlurmJob(batch, o));  // submitted again: its tasks resume
  o.shards = 2;
  CHECK_THROWS_WITH(writeSlurmJob(batch, o),
                    Contains("was written for 3 shards") && Contains("not --shards 2"));
  o.shards = 3;
  fs::remove(job.shardList);
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("no shards.list"));
  writeSlurmJob(batch, optionsIn(dir, "res2"));
  const fs::path script = dir.path() / "res2.slurm" / "array.sh";
  fs::remove(script);
  REQUIRE(::mkfifo(script.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(writeSlurmJob(batch, optionsIn(dir, "res2")),
                    Contains("array.sh is not a regular file"));
  CHECK(fs::is_fifo(script));
}
