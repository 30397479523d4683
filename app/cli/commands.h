#pragma once
// The subcommands of the `ddalab` CLI; each takes its own arguments (after the command name)
// and returns the process exit code: 0 ok, 1 runtime error, 2 bad usage or input.
#include <string>
#include <vector>

namespace ddalab::cli {

using Args = std::vector<std::string>;

inline constexpr int kOk = 0;
inline constexpr int kRuntimeError = 1;
inline constexpr int kBadInput = 2;

int runCommand(const Args& args);
int rateCommand(const Args& args);
int listCommand(const Args& args);
int validateCommand(const Args& args);
int scoreCommand(const Args& args);
int benchCommand(const Args& args);
int sweepCommand(const Args& args);
int mergeCommand(const Args& args);
int slurmCommand(const Args& args);
int studyCommand(const Args& args);
int checkGameCommand(const Args& args);
int serveCommand(const Args& args);

}  // namespace ddalab::cli
