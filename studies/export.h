#pragma once
// The tidy export of a study (docs/user-study.md, "Export"): one row per participant, answered game
// and analysed key (the questionnaire's items, then its instruments' subscales), for R, pandas and
// SPSS; studies/analysis.R fits the primary analysis from it with lme4 + lmerTest.
#include <filesystem>
#include <span>
#include <string>

#include "studies/read_sessions.h"

namespace ddalab {

// A participant's pseudonym in an export: the first 16 hex digits of SHA-256(protocol name, a NUL
// byte, id). Stable for one protocol, unlinkable across protocols without the ids.
std::string hashedParticipantId(const std::string& protocol, const std::string& participant);

// The CSV: header participant,order_row,period,condition,condition_number,game,game_seed, every
// metric (games-CSV names), item, answer; '.' decimals, NA for missing, strings quoted where
// needed. Ids hashed when `hashIds`.
std::string tidyExportCsv(const StudySessions& study, bool hashIds);

// Throws InputError naming `option` unless `out` may receive the export: not an existing non-file
// (checkReplaceable), and neither one of the folders read (`inputs`, the sessions' folders) nor
// inside one.
void checkExportTarget(const std::filesystem::path& out,
                       std::span<const std::filesystem::path> inputs, const StudySessions& study,
                       const std::string& option);

}  // namespace ddalab
