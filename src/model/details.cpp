#include "model/details.h"

#include <functional>
#include <map>
#include <string>

namespace gpucheck::model {
namespace {

template <typename T>
Details none(const model::Report&) {
  return T{};
}

}  // namespace

Details details_of(const model::Report& r) {
  using Reader = std::function<Details(const model::Report&)>;
  static const std::map<std::string, Reader> kByCommand{
      {"run", run_details},
      {"doctor", doctor_details},
      {"explain", explain_details},
      {"abi", abi_details},
      {"env", none<EnvDetails>},
      {"list", none<ListDetails>},
      {"version", version_details},
      {"use-cuda", use_cuda_details},
      {"modulefiles", modulefiles_details},
      {"fleet", fleet_details},
      {"compare", compare_details},
      {"diff", diff_details},
      {"bench", bench_details},
      {"completion", completion_details},
      {"man", man_details},
  };
  auto it = kByCommand.find(r.meta.command);
  return it != kByCommand.end() ? it->second(r) : Details{NoDetails{}};
}

nlohmann::json to_json(const Details& d) {
  return std::visit(
      [](const auto& typed) -> nlohmann::json {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, NoDetails> || std::is_same_v<T, EnvDetails> || std::is_same_v<T, ListDetails>)
          return nullptr;
        else
          return to_json(typed);
      },
      d);
}

}  // namespace gpucheck::model
