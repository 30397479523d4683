// ddalab serve PROTOCOL.json --dir STUDY_DIR: an online study (docs/web-api.md). This file reads
// and checks the command line, the protocol and the admin secret; the server (pages, the JSON API
// v1, listening) is app/serve's, the study (sessions, tokens, limits, the researcher's view)
// studies/online_study.h's. Folders as the GUI's.
#include "app/cli/options.h"
#include "app/serve/server.h"
#include "core/json_input.h"

namespace ddalab::cli {

int serveCommand(const Args& args) {
  po::options_description options("serve options");
  std::string protocolFile, dir, bind, secretFile;
  std::vector<std::string> trustedProxies;
  int port = 8080, paceMs = -1, threads = 2, creations = 30, connectionsPerAddress = 16;
  double timeoutMinutes = 0;
  options.add_options()("protocol", po::value(&protocolFile)->required(), "the study protocol")(
      "dir", po::value(&dir)->required(), "the study folder (sessions, allocation log)")(
      "port", po::value(&port), "TCP port (default 8080; 0 picks a free one)")(
      "bind", po::value(&bind)->default_value("127.0.0.1"), "address to listen on")(
      "timeout-minutes", po::value(&timeoutMinutes),
      "for tests only: overrides the protocol's online.timeout_minutes (idle minutes until a "
      "dropout; fractions allowed)")(
      "admin-secret-file", po::value(&secretFile),
      "the /admin secret (64 hex digits); default: a new one, printed at start")(
      "creations-per-minute", po::value(&creations),
      "sessions one address may create a minute (default 30)")(
      "connections-per-address", po::value(&connectionsPerAddress),
      "connections one address may have open at once, more are answered 503 (default 16; "
      "a --trusted-proxy is not limited)")(
      "trusted-proxy", po::value(&trustedProxies)->composing(),
      "a reverse proxy's address (e.g. 127.0.0.1): its X-Forwarded-For names the participant's "
      "address; repeatable")("threads", po::value(&threads),
                             "threads deciding for the AIs (default 2)")(
      "pace-ms", po::value(&paceMs),
      "for tests only: overrides the protocol's pace_ms (ms between the AI's shown moves)");
  po::positional_options_description positional;
  positional.add("protocol", 1);
  po::variables_map vm;
  if (auto stop = parseArgs(args, "ddalab serve PROTOCOL.json --dir STUDY_DIR [options]", options,
                            positional, vm))
    return *stop;
  if (port < 0 || port > 65535) throw InputError("--port", "expected 0 to 65535");
  if (threads < 1 || threads > 64) throw InputError("--threads", "expected 1 to 64");
  if (creations < 1) throw InputError("--creations-per-minute", "expected at least 1");
  if (connectionsPerAddress < 1 || connectionsPerAddress > 64)
    throw InputError("--connections-per-address", "expected 1 to 64 (the request threads)");
  for (const std::string& proxy : trustedProxies)
    if (proxy.empty() || proxy.find_first_not_of("0123456789abcdefABCDEF.:") != std::string::npos)
      throw InputError("--trusted-proxy", "expected an IP address such as 127.0.0.1, got " + proxy);
  if (vm.count("pace-ms") && (paceMs < 0 || paceMs > 60000))
    throw InputError("--pace-ms", "expected 0 to 60000");
  if (vm.count("timeout-minutes") && !(timeoutMinutes > 0 && timeoutMinutes <= 24 * 60))
    throw InputError("--timeout-minutes", "expected more than 0, at most a day");
  const StudyProtocol protocol = loadStudyProtocol(protocolFile);
  checkTextsFilledIn(protocol);
  if (!vm.count("timeout-minutes")) timeoutMinutes = protocol.online.timeoutMinutes;

  // The researcher's secret: from --admin-secret-file (its first line, 64 hex digits) or new.
  std::string secret = newToken();
  if (!secretFile.empty()) {
    std::string text = readInputFile(secretFile, {1024, "an admin secret file"});
    secret = text.substr(0, text.find('\n'));
    if (secret.size() != 64 || secret.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw InputError(secretFile, "expected 64 lower-case hexadecimal digits on its first line");
  }
  serve::serveStudy(
      protocol, dir, {paceMs, threads, creations, timeoutMinutes, secret, {}},
      {bind, port, static_cast<size_t>(connectionsPerAddress), trustedProxies, secretFile.empty()});
  return kOk;
}

}  // namespace ddalab::cli
