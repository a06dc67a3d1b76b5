#pragma once
// `gpucheck doctor`: read the facts (this machine, --from, --root, or a pasted report with --from-text),
// load the knowledge base, judge and plan (report::doctor_report), and write plan 1's pins when asked.
#include <string>

#include "model/report.h"
#include "report/doctor_report.h"
#include "commands/inventory_source.h"

namespace gpucheck::commands {

struct DoctorRequest {
  commands::InventorySource source;
  report::PlanRequest plan;
  std::string from_text;        // --from-text FILE: a pasted collect_env (or similar) report
  std::string constraints_out;  // --constraints-out FILE: plan 1's pins, for pip/uv -c
};

/// The doctor Report into `base`. Throws InputError for bad input (exit 2) before any rule runs, and when
/// --constraints-out is asked but no plan satisfies the asks.
model::Report doctor(const DoctorRequest& request, model::Report base);

/// The pasted formats --from-text reads, in words, for --help (the error for an unread paste points there).
const char* pasted_report_formats();

}  // namespace gpucheck::commands
