#include "model/tool_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const VersionDetails& d) {
  return {{"version", d.version}, {"cuda_compiler", d.cuda_compiler}, {"cuda_architectures", d.cuda_architectures},
          {"cuda", d.cuda},       {"nccl", d.nccl},                   {"torch", d.torch}};
}

VersionDetails version_details(const model::Report& r) {
  VersionDetails d;
  // A report that does not say its version is this gpucheck's (the report's own tool_version).
  d.version = member(r.details, "version").is_string() ? text_at(r.details, "version") : r.meta.tool_version;
  d.cuda_compiler = text_at(r.details, "cuda_compiler");
  d.cuda_architectures = text_at(r.details, "cuda_architectures");
  d.cuda = flag_at(r.details, "cuda");
  d.nccl = flag_at(r.details, "nccl");
  d.torch = flag_at(r.details, "torch");
  return d;
}

nlohmann::json to_json(const ProbeListing& p) {
  return {{"levels", p.levels}, {"timeout_s", p.timeout_s}, {"tags", p.tags}, {"executable", p.executable}};
}

ProbeListing probe_listing(const Finding& f) {
  return {strings_at(f.details, "levels"), strings_at(f.details, "tags"), number_at(f.details, "timeout_s", 0.0),
          text_at(f.details, "executable")};
}

nlohmann::json to_json(const CompletionDetails& d) { return {{"shell", d.shell}, {"script", d.script}}; }

CompletionDetails completion_details(const model::Report& r) {
  return {text_at(r.details, "shell"), text_at(r.details, "script")};
}

nlohmann::json to_json(const ManDetails& d) { return {{"format", d.format}, {"page", d.page}}; }

ManDetails man_details(const model::Report& r) {
  ManDetails d;
  if (member(r.details, "format").is_string()) d.format = text_at(r.details, "format");
  d.page = text_at(r.details, "page");
  return d;
}

}  // namespace gpucheck::model
