#include "model/abi_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const AbiDetails& d) { return {{"seconds", d.seconds}, {"objects_parsed", d.objects_parsed}}; }

AbiDetails abi_details(const model::Report& r) {
  return {number_at(r.details, "seconds", 0.0), whole(member(r.details, "objects_parsed"))};
}

AbiTarget abi_target(const Finding& f) {
  AbiTarget t;
  const nlohmann::json& d = f.details;
  t.error = text_at(d, "error");
  for (const auto& dep : member(d, "dependencies")) {
    if (member(dep, "found") != false) continue;  // only a dependency known not found
    MissingLibrary m{text_at(dep, "name"), text_at(dep, "requested_by"), text_at(dep, "error"), {}};
    for (const auto& a : member(dep, "searched"))
      m.searched.push_back({text_at(a, "path"), text_at(a, "source"), text_at(a, "outcome")});
    t.missing.push_back(std::move(m));
  }
  for (const auto& g : member(member(d, "symbols"), "groups"))
    t.symbol_groups.push_back({text_at(g, "category"), text_at(g, "cause"), strings_at(g, "symbols"),
                               strings_at(g, "remedy")});
  const nlohmann::json& cxx = member(d, "cxx_abi");
  // A target without a C++ ABI record reads as "unknown": nothing to show.
  t.cxx_abi = cxx.is_object() ? text_at(cxx, "abi") : "unknown";
  t.cxx_macro = text_at(cxx, "macro");
  const nlohmann::json& torch = member(d, "torch");
  t.torch_mismatch = member(torch, "mismatch") == true;
  t.torch_path = text_at(torch, "path");
  t.torch_macro = text_at(member(torch, "cxx_abi"), "macro");
  const nlohmann::json& cuda = member(d, "cuda");
  for (const auto& fb : member(cuda, "fatbins")) {
    Fatbin out{text_at(fb, "section"), text_at(fb, "error"), whole(member(fb, "entries")), {}};
    for (const auto& agg : member(fb, "by_target"))
      out.by_target.push_back({text_at(agg, "kind"), text_at(agg, "target"), text_at(agg, "ptx_isa"),
                               whole(member(agg, "count")), whole(member(agg, "compressed"))});
    t.fatbins.push_back(std::move(out));
  }
  for (const auto& v : member(cuda, "gpus")) t.gpus.push_back({text_at(v, "gpu"), text_at(v, "verdict"), text_at(v, "detail")});
  t.cuobjdump_disagreement = text_at(member(cuda, "cuobjdump"), "disagreement");
  return t;
}

}  // namespace gpucheck::model
