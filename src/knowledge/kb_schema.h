#pragma once
// JSON-schema-like check of the knowledge-base files: each file names its schema, each fact table is an
// array of objects with required typed fields, and every fact carries a `source` URL.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::knowledge {

/// Problems found in one data/compat document ("torch.json: releases[3]: no source"); empty when valid.
std::vector<std::string> validate_compat_document(const nlohmann::json& doc, const std::string& file_name);

/// The file names the knowledge base consists of.
const std::vector<std::string>& compat_files();

}  // namespace gpucheck::knowledge
