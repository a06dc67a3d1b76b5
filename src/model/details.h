#pragma once
// A command's own part of its Report, typed: one struct per command, each with its JSON conversion in its
// own file. details_of() is the one place a report's command name picks its struct, so a renderer shows a
// report by the type of its details (std::visit), never by comparing command names.
#include <variant>

#include "model/abi_details.h"
#include "model/bench_details.h"
#include "model/compare_details.h"
#include "model/diff_details.h"
#include "model/doctor_details.h"
#include "model/env_details.h"
#include "model/envtools_details.h"
#include "model/explain_details.h"
#include "model/fleet_details.h"
#include "model/report.h"
#include "model/run_details.h"
#include "model/tool_details.h"

namespace gpucheck::model {

/// A command with nothing beyond its findings (selftest, a report from a newer gpucheck).
struct NoDetails {};

using Details = std::variant<NoDetails, RunDetails, DoctorDetails, ExplainDetails, AbiDetails, EnvDetails,
                             ListDetails, VersionDetails, UseCudaDetails, ModulefilesDetails, FleetDetails,
                             CompareDetails, DiffDetails, BenchDetails, CompletionDetails, ManDetails>;

/// The typed details of `r`, read leniently (a saved report may come from anywhere).
Details details_of(const model::Report& r);

/// The JSON of Report.details for `d` (null for details that have none): what a builder stores.
nlohmann::json to_json(const Details& d);

}  // namespace gpucheck::model
