#pragma once
// `gpucheck use-cuda` and `gpucheck modulefiles`: their own part of the Report (Report.details), typed:
// written by report/envtools_report.cpp, read by the text renderer through these structs, never by key.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace gpucheck::model {

struct UseCudaDetails {
  std::string toolkit_root, toolkit_version;  // the toolkit selected
  struct Export {
    std::string name, value;
  };
  std::vector<Export> exports;  // the variables set, in order
  std::string shell;            // the lines for `eval`, exactly as printed
};
nlohmann::json to_json(const UseCudaDetails& d);
UseCudaDetails use_cuda_details(const model::Report& r);

struct ModulefilesDetails {
  std::string dir;                   // where they were written
  std::vector<std::string> written;  // the files written
  std::string tcl, lua;              // the directories for `module use`
};
nlohmann::json to_json(const ModulefilesDetails& d);
ModulefilesDetails modulefiles_details(const model::Report& r);

}  // namespace gpucheck::model
