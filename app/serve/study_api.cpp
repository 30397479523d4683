#include "app/serve/study_api.h"

#include <optional>

#include "core/json_input.h"
#include "core/file_io.h"

namespace ddalab::serve {
namespace {

ApiReply jsonReply(int status, Json body) {
  ApiReply reply;
  reply.status = status;
  reply.body = std::move(body);
  return reply;
}

// The status that says why the study refused.
int refusalStatus(Refusal reason) {
  switch (reason) {
    case Refusal::TooManySessions:
      return 429;
    case Refusal::UnknownToken:
    case Refusal::NotResearcher:
      return 401;
  }
  return 500;
}

}  // namespace

ApiReply apiError(int status, const std::string& message, const std::string& path) {
  return jsonReply(status, {{"error", message}, {"path", path}});
}

std::string bearerToken(const std::string& authorization) {
  const std::string prefix = "Bearer ";
  if (!authorization.starts_with(prefix) || authorization.size() != prefix.size() + 64) return "";
  return authorization.substr(prefix.size());
}

StudyApi::StudyApi(OnlineStudy& study, const LatencyTable* latency)
    : study_(study), latency_(latency) {}

ApiReply StudyApi::startSession(const ApiRequest& req) {
  const auto param = req.query.find(study_.participantIdParameter());
  std::optional<std::string> given;
  if (param != req.query.end()) given = param->second;
  const SessionStart started = study_.startSession(given, req.client);
  return jsonReply(started.resumed ? 200 : 201,
                   {{"token", started.token}, {"resumed", started.resumed}});
}

ApiReply StudyApi::withSession(const Endpoint& endpoint, const ApiRequest& req) {
  if (req.bearer.empty()) return apiError(401, "expected an Authorization: Bearer token");
  const std::shared_ptr<OnlineSession> session = study_.session(req.bearer);
  if (endpoint.operation == Operation::Screen) return jsonReply(200, study_.screen(*session));
  const Json body = req.body.empty() ? Json::object() : parseJsonText(req.body, "body");
  study_.submit(*session, std::string(endpoint.submission), body);
  return jsonReply(200, {{"ok", true}});
}

ApiReply StudyApi::answer(const Endpoint& endpoint, const ApiRequest& req) {
  switch (endpoint.operation) {
    case Operation::StartSession:
      return startSession(req);
    case Operation::Screen:
    case Operation::Submit:
      return withSession(endpoint, req);
    case Operation::Progress: {
      Json body = study_.researcherProgress(req.bearer);
      if (latency_) body["latency"] = latency_->summary();
      return jsonReply(200, body);
    }
    case Operation::Archive: {
      ApiReply reply;
      reply.bytes = study_.researcherArchive(req.bearer);
      reply.contentType = "application/x-tar";
      reply.headers = {{"Content-Disposition", "attachment; filename=\"study.tar\""}};
      return reply;
    }
  }
  return apiError(500, "the server could not do it");
}

// Every API request: an endpoint, or a refusal.
ApiReply StudyApi::route(const ApiRequest& req) {
  for (const Endpoint& endpoint : kEndpoints)
    if (req.path == endpoint.path)
      return req.method == endpoint.method
                 ? answer(endpoint, req)
                 : apiError(405, "expected " + std::string(endpoint.method));
  if (req.path.starts_with("/api/"))
    return apiError(404, "no such endpoint", textExcerpt(req.path, 200));  // escaped: any bytes
  return apiError(404, "not found");
}

ApiReply StudyApi::handle(const ApiRequest& request) {
  try {
    return route(request);
  } catch (const InputError& e) {
    return apiError(400, e.message(), e.path());
  } catch (const StudyRefusal& e) {
    return apiError(refusalStatus(e.reason()), e.what());
  } catch (const StepConflict& e) {
    return apiError(409, e.what());
  } catch (const WriteError& e) {
    // Nothing was applied (submissions are applied once durable): the page sends it again.
    study_.report(std::string("cannot record: ") + e.what());
    ApiReply reply = apiError(503, "the study cannot record right now; try again in a moment");
    reply.headers = {{"Retry-After", "2"}};
    return reply;
  } catch (const std::exception& e) {
    study_.report(std::string("error: ") + e.what());
    return apiError(500, "the server could not do it");
  }
}

}  // namespace ddalab::serve
