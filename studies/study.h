#pragma once
// User studies (docs/user-study.md), the whole of them for a caller that runs one: the protocol
// (protocol.h), a participant's plan (plan.h), the files of a session folder (session_records.h)
// and the session's steps (study_session.h). Code inside studies/ includes the one it needs.
#include "studies/plan.h"
#include "studies/protocol.h"
#include "studies/session_records.h"
#include "studies/study_session.h"
